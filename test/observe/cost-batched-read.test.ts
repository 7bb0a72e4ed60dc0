/**
 * `teamd top`'s first read of 20,000 sessions (issue 24) reads files
 * synchronously in batches between turns of the event loop, and zod-checks
 * only the lines whose type is `assistant` or `result`. What it reports must
 * be what the transcripts say: every valid depth-0 `result` counted once,
 * everything else (other kinds, malformed usage, subagents' lines, a torn
 * last line) ignored, across more files than one batch; and the event loop
 * keeps turning while it reads.
 */
import { appendFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { costReport, TranscriptSpendReader } from '../../src/observe/cost.js';
import { line, sessionFile, usage, writeSession, type SessionSpec } from '../dashboard/support/transcripts.js';

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'teamd-cost-batch-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const MODEL = 'claude-sonnet-4-5';
type Kind = 'result' | 'assistant' | 'badResult' | 'badAssistant' | 'deepResult' | 'user' | 'noise';
const KINDS: Kind[] = ['result', 'assistant', 'badResult', 'badAssistant', 'deepResult', 'user', 'noise'];

function lineOf(s: SessionSpec, kind: Kind, n: number): object {
  const u = usage(n + 1, n + 2, n, 1);
  switch (kind) {
    case 'result': return line.result(s, { [MODEL]: u }, n / 100, 1);
    case 'assistant': return line.text(s, 'hi', u, MODEL);
    case 'badResult': return { ...line.result(s, { [MODEL]: u }, n / 100, 1), total_cost_usd: 'free' };
    case 'badAssistant': return { ...line.text(s, 'hi', u, MODEL), usage: { input_tokens: 'many' } };
    case 'deepResult': return { ...line.result(s, { [MODEL]: u }, n / 100, 1), depth: 1 };
    case 'user': return line.prompt(s, 'go');
    default: return { type: 'assistant_but_not', model: MODEL, usage: u, total_cost_usd: 5 };
  }
}

/** What the files say: the valid depth-0 results (the open calls after the last one are priced, so kept out here). */
function expected(sessions: Kind[][]): { runs: number; costUsd: number; output: number } {
  let runs = 0, costUsd = 0, output = 0;
  sessions.forEach((kinds) =>
    kinds.forEach((k, n) => {
      if (k !== 'result') return;
      runs += 1;
      costUsd += n / 100;
      output += n + 2;
    }),
  );
  return { runs, costUsd, output };
}

/** Sessions whose last line is a result (nothing left open to price), one file each, over two agents. */
function write(sessions: Kind[][]): void {
  sessions.forEach((kinds, i) => {
    const s: SessionSpec = { agent: `w${i % 2}`, session: `s${i}`, parent: `mail:${i}`, mtime: Date.now() - 600_000 };
    writeSession(root, s, [line.header(s), ...kinds.map((k, n) => lineOf(s, k, n)), line.result(s, { [MODEL]: usage(0, 0) }, 0, 1)]);
  });
}

it('counts every valid depth-0 result once and nothing else, for generated transcripts', async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(fc.array(fc.constantFrom(...KINDS), { maxLength: 8 }), { minLength: 1, maxLength: 6 }), async (sessions) => {
      rmSync(join(root, '.team'), { recursive: true, force: true });
      write(sessions);
      const kept = new TranscriptSpendReader(root, {}, { sweepMs: 60_000 });
      const report = await costReport(root, 'teammate', { reader: kept });
      const want = expected(sessions);
      expect(report.total.runs).toBe(want.runs + sessions.length); // + each file's closing result
      expect(report.total.costUsd).toBeCloseTo(want.costUsd, 9);
      expect(report.total.tokens.output).toBe(want.output);
      expect(report.running).toBe(0);
      expect(await new TranscriptSpendReader(root).spends()).toEqual(await kept.spends());
    }),
    { numRuns: 40 },
  );
});

it('reads more sessions than one batch, lets the event loop turn meanwhile, and ignores a torn last line', async () => {
  const sessions = Array.from({ length: 600 }, (_, i): Kind[] => (i % 3 ? ['user', 'assistant', 'result'] : ['noise', 'result']));
  write(sessions);
  const torn = { agent: 'w0', session: 's0', parent: 'mail:0' };
  appendFileSync(sessionFile(root, torn), '{"type":"result","total_cost_usd":1,"usa');
  let turns = 0;
  const ticking = setInterval(() => void turns++, 0);
  const report = await costReport(root, 'teammate', { reader: new TranscriptSpendReader(root, {}, { sweepMs: 60_000 }) });
  clearInterval(ticking);
  const want = expected(sessions);
  expect(report.total.runs).toBe(want.runs + 600);
  expect(report.total.costUsd).toBeCloseTo(want.costUsd, 9);
  expect(report.rows.map((r) => [r.key, r.runs])).toEqual([['w0', 600], ['w1', 600]]);
  expect(turns).toBeGreaterThan(0);
});
