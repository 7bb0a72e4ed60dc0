/**
 * Spend kept as running totals (issue 24): whatever happens to the session
 * files between two refreshes — a run appended, a torn line, a file truncated,
 * removed, replaced or compressed — a reader kept across the changes reports
 * what a fresh reader reports, and what the grouping of the old code (kept
 * here as the oracle: re-sum every spend) reports; and a refresh where one
 * transcript changed reads that one only.
 */
import { appendFileSync, mkdtempSync, readFileSync, rmSync, truncateSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { emptyUsage, type Usage } from '../../src/model/types.js';
import { addUsage } from '../../src/model/usage.js';
import {
  formatCostReport,
  TranscriptSpendReader,
  type CostGrouping,
  type CostReport,
  type Spend,
} from '../../src/observe/cost.js';
import { line, sessionFile, usage, writeSession, type SessionSpec } from '../dashboard/support/transcripts.js';

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'teamd-spend-inc-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

/** The grouping before issue 24's totals: every spend summed again in order, in floating point. */
function oracle(spends: readonly Spend[], by: CostGrouping): CostReport {
  const key = (s: Spend): string =>
    by === 'teammate' ? s.agent : by === 'model' ? s.model : s.task === null ? '(no task)' : s.task.startsWith('mail:') ? '(messages)' : s.task;
  const rows = new Map<string, { usage: Usage; costUsd: number; runs: Set<string> }>();
  for (const s of spends) {
    const row = rows.get(key(s)) ?? { usage: emptyUsage(), costUsd: 0, runs: new Set<string>() };
    rows.set(key(s), { usage: addUsage(row.usage, s.usage), costUsd: row.costUsd + s.costUsd, runs: row.runs.add(s.run) });
  }
  const tokens = (u: Usage) => ({ input: u.input_tokens, output: u.output_tokens, cacheRead: u.cache_read_input_tokens, cacheWrite: u.cache_creation_input_tokens });
  return {
    by,
    rows: [...rows]
      .map(([k, r]) => ({ key: k, tokens: tokens(r.usage), costUsd: r.costUsd, runs: r.runs.size }))
      .sort((a, b) => b.costUsd - a.costUsd || a.key.localeCompare(b.key)),
    total: {
      tokens: tokens(spends.reduce((u, s) => addUsage(u, s.usage), emptyUsage())),
      costUsd: spends.reduce((a, s) => a + s.costUsd, 0),
      runs: new Set(spends.map((s) => s.run)).size,
    },
    running: new Set(spends.filter((s) => !s.finished).map((s) => s.run)).size,
  };
}

/** The same report up to the last bits of each dollar figure (the oracle sums in order, in floating point). */
function expectSameReport(got: CostReport, want: CostReport): void {
  const rounded = (r: CostReport) => ({
    ...r,
    rows: r.rows.map((x) => ({ ...x, costUsd: Math.round(x.costUsd * 1e9) })).sort((a, b) => a.key.localeCompare(b.key)),
    total: { ...r.total, costUsd: Math.round(r.total.costUsd * 1e9) },
  });
  expect(rounded(got)).toEqual(rounded(want));
}

const AGENTS = ['w1', 'w2'];
const PARENTS = ['t-1', 't-2', 'mail:m-1', null];
const MODELS = ['claude-sonnet-4-5', 'claude-haiku-4-5'];

const spec = (agent: number, session: number, parent = 0): SessionSpec => ({
  agent: AGENTS[agent]!,
  session: `s${session}`,
  parent: PARENTS[parent]!,
});

const Run = fc.record({
  parent: fc.nat(PARENTS.length - 1),
  model: fc.nat(MODELS.length - 1),
  tokens: fc.nat(5_000),
  cost: fc.double({ min: 0, max: 3, noNaN: true }),
  finished: fc.boolean(),
});
interface RunSpec { parent: number; model: number; tokens: number; cost: number; finished: boolean }

function runLines(s: SessionSpec, r: RunSpec): object[] {
  const at = { ...s, parent: PARENTS[r.parent]! };
  const model = MODELS[r.model]!;
  const calls = [line.text(at, 'a', usage(r.tokens, r.tokens % 97), model), line.text(at, 'b', usage(7, 3), model, 1)];
  return r.finished ? [...calls, line.result(at, { [model]: usage(r.tokens, r.tokens % 97) }, r.cost, 1)] : calls;
}

const Op = fc.oneof(
  fc.record({ kind: fc.constant('append' as const), agent: fc.nat(1), session: fc.nat(3), runs: fc.array(Run, { minLength: 1, maxLength: 3 }) }),
  fc.record({ kind: fc.constant('torn' as const), agent: fc.nat(1), session: fc.nat(3) }),
  fc.record({ kind: fc.constant('truncate' as const), agent: fc.nat(1), session: fc.nat(3), keep: fc.double({ min: 0, max: 1, noNaN: true }) }),
  fc.record({ kind: fc.constant('remove' as const), agent: fc.nat(1), session: fc.nat(3) }),
  fc.record({ kind: fc.constant('replace' as const), agent: fc.nat(1), session: fc.nat(3), runs: fc.array(Run, { maxLength: 3 }) }),
  fc.record({ kind: fc.constant('compress' as const), agent: fc.nat(1), session: fc.nat(3) }),
);
type OpSpec = typeof Op extends fc.Arbitrary<infer T> ? T : never;

let clock = Date.now() - 3_600_000;
/** Each change gets its own mtime: a file's stamp is its size and mtime. */
function stamp(file: string): void {
  clock += 1_000;
  utimesSync(file, new Date(clock), new Date(clock));
}

function apply(op: OpSpec): void {
  const s = spec(op.agent, op.session);
  const file = sessionFile(root, s);
  const text = ((): string | null => {
    try {
      return readFileSync(file, 'utf8');
    } catch {
      return null;
    }
  })();
  if (op.kind === 'append') writeSession(root, s, op.runs.flatMap((r) => runLines(s, r)), true);
  else if (op.kind === 'replace') writeSession(root, s, [line.header(s), ...op.runs.flatMap((r) => runLines(s, r))]);
  else if (text === null) return;
  else if (op.kind === 'torn') appendFileSync(file, '{"type":"result","total_cost_usd":9');
  else if (op.kind === 'truncate') truncateSync(file, Math.floor(text.length * op.keep));
  else if (op.kind === 'remove') return rmSync(file);
  else if (op.kind === 'compress') {
    writeFileSync(`${file}.gz`, gzipSync(text));
    stamp(`${file}.gz`);
    return rmSync(file);
  }
  stamp(file);
}

const fresh = (): TranscriptSpendReader => new TranscriptSpendReader(root);

it('a reader kept across any appends, truncations, removals, replacements and compressions reports the true figures', async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(fc.array(Op, { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 6 }), async (rounds) => {
      rmSync(join(root, '.team'), { recursive: true, force: true });
      const plain = fresh();
      const kept = new TranscriptSpendReader(root, {}, { sweepMs: 60_000 });
      for (const ops of rounds) {
        for (const op of ops) apply(op);
        const truth = await fresh().spends();
        for (const by of ['teammate', 'task', 'model'] as const) {
          const want = oracle(truth, by);
          expectSameReport(await plain.report(by), want);
          expectSameReport(await kept.report(by), want);
          // The kept totals are the exact sums: the same as a fresh read to the last bit.
          expect(await plain.report(by)).toEqual(await fresh().report(by));
          expect(formatCostReport(await kept.report(by))).toEqual(formatCostReport(await fresh().report(by)));
        }
        expect(await kept.spends()).toEqual(truth);
      }
    }),
    { numRuns: 200 },
  );
});

it('a refresh where one transcript changed reads that one and changes the totals by its delta', async () => {
  const specs = Array.from({ length: 300 }, (_, i) => spec(i % 2, i, i % PARENTS.length));
  for (const s of specs) {
    const file = writeSession(root, s, [line.header(s), ...runLines(s, { parent: 0, model: 0, tokens: 100, cost: 0.01, finished: true })]);
    stamp(file);
  }
  // Without the summary between processes (spend-summary.test.ts): every first read opens the files.
  const plain = new TranscriptSpendReader(root, {}, { summary: false });
  const kept = new TranscriptSpendReader(root, {}, { sweepMs: 3_600_000, summary: false });
  kept.hinted = true;
  const before = await kept.report('teammate');
  await plain.report('teammate');
  expect(kept.sessionsRead).toBe(300);
  const one = specs[7]!;
  writeSession(root, one, runLines(one, { parent: 1, model: 1, tokens: 50, cost: 0.25, finished: true }), true);
  stamp(sessionFile(root, one));
  kept.changed(sessionFile(root, one));
  const after = await kept.report('teammate');
  expect(kept.sessionsRead).toBe(301);
  expect(after.total.costUsd - before.total.costUsd).toBeCloseTo(0.25, 12);
  expect(after.total.runs).toBe(before.total.runs + 1);
  expect(await plain.report('teammate')).toEqual(after);
  expect(plain.sessionsRead).toBe(301);
  // Nothing changed: the same report, nothing read.
  expect(await kept.report('teammate')).toBe(after);
  expect(kept.sessionsRead).toBe(301);
});

it('a session rewritten in place to the same size is read again whole, not on from its old offset', async () => {
  const s = spec(0, 1);
  const file = writeSession(root, s, [line.header(s), ...runLines(s, { parent: 0, model: 0, tokens: 10, cost: 0.5, finished: true })]);
  stamp(file);
  const kept = fresh();
  expect((await kept.report('task')).rows.map((r) => r.key)).toEqual(['t-1']);
  writeFileSync(file, readFileSync(file, 'utf8').replaceAll('"t-1"', '"t-2"').replace('"total_cost_usd":0.5', '"total_cost_usd":0.7'));
  stamp(file);
  const after = await kept.report('task');
  expect(after).toEqual(await fresh().report('task'));
  expect(after.rows.map((r) => [r.key, r.costUsd])).toEqual([['t-2', 0.7]]);
});
