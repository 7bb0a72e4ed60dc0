/**
 * The summary of finished sessions' spending kept between processes
 * (`.team/state/spend-summary.json`, issue 24): a second reader restores
 * settled sessions from it instead of opening them, and reports what a reader
 * without it reports — after garbage or hostile summaries, and after sessions
 * were appended to, truncated, removed or replaced since they were summarised.
 */
import { appendFileSync, existsSync, mkdtempSync, readFileSync, rmSync, truncateSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { TranscriptSpendReader } from '../../src/observe/cost.js';
import { ROW } from '../../src/observe/folded-sessions.js';
import { spendSummaryOf } from '../../src/observe/spend-summary.js';
import { budgetReader } from '../../src/lead/budget-reader.js';
import { line, sessionFile, usage, writeSession, type SessionSpec } from '../dashboard/support/transcripts.js';

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'teamd-spend-summary-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

let clock = Date.now() - 3_600_000;
function stamp(file: string): void {
  clock += 1_000;
  utimesSync(file, new Date(clock), new Date(clock));
}

const spec = (i: number): SessionSpec => ({ agent: `w${i % 3}`, session: `s${i}`, parent: i % 2 ? `t-${i % 5}` : `mail:m-${i}` });

/** A finished session; `at`: its mtime (else the next stamp). */
function finishedSession(i: number, cost = 0.01 * (i + 1), at?: number): void {
  const s = spec(i);
  const model = i % 2 ? 'claude-sonnet-4-5' : 'claude-haiku-4-5';
  const file = writeSession(root, s, [
    line.header(s),
    line.text(s, 'a', usage(100 + i, 10), model),
    line.result(s, { [model]: usage(100 + i, 10), 'claude-opus-4-1': usage(i, 1) }, cost, 1),
  ]);
  if (at === undefined) stamp(file);
  else utimesSync(file, new Date(at), new Date(at));
}

const plain = (): TranscriptSpendReader => new TranscriptSpendReader(root, {}, { summary: false });
const truth = async () => ({ spends: await plain().spends(), byTask: await plain().report('task') });

it('a second reader restores settled sessions from the summary, reading none of them, with the same figures', async () => {
  for (let i = 0; i < 40; i++) finishedSession(i);
  const s = spec(40);
  stamp(writeSession(root, s, [line.header(s), line.text(s, 'still going', usage(5, 5))]));
  const first = new TranscriptSpendReader(root);
  await first.report('task');
  expect(existsSync(spendSummaryOf(root))).toBe(true);
  const second = new TranscriptSpendReader(root);
  expect({ spends: await second.spends(), byTask: await second.report('task') }).toEqual(await truth());
  expect(second.sessionsRead).toBe(1); // the open one
});

it('a summary made under other prices is not used', async () => {
  for (let i = 0; i < 5; i++) finishedSession(i);
  await new TranscriptSpendReader(root).report('model');
  const prices = { 'claude-opus-4-1': { input: 100, output: 100 } };
  const other = new TranscriptSpendReader(root, prices);
  expect(await other.report('model')).toEqual(await new TranscriptSpendReader(root, prices, { summary: false }).report('model'));
  expect(other.sessionsRead).toBe(5);
});

/** Hostile or broken summaries: never trusted beyond their own entries' shape, never thrown on. */
const garbage = fc.oneof(
  fc.string(),
  fc.constant('{"version":1,"prices":"{}","sessions":{"w0/s0.jsonl":{"size":-1}}}'),
  fc.constant('{"version":1,"prices":"{}","sessions":{"w0/s0.jsonl":{"size":1e999,"mtime":0,"runs":[]}}}'),
  fc.constant('{"version":1,"prices":"{}","sessions":{"__proto__":{"size":1,"mtime":1,"runs":[]}}}'),
  fc.jsonValue().map((v) => JSON.stringify(v)),
  fc.jsonValue().map((v) => JSON.stringify({ version: 1, prices: '{}', sessions: { 'w0/s0.jsonl': v, 'w1/s1.jsonl': v } })),
  fc.jsonValue().map((v) => `{"version":3,"prices":"{}"}\n{"agent":"w0","fold":${JSON.stringify(v)}}\n{"sessions":{}}\n`),
  fc.jsonValue().map((v) => `{"version":3,"prices":"{}"}\n{"agent":"w1","fold":${JSON.stringify(v)}}\n{"sessions":${JSON.stringify(v)}}\n`),
  fc.array(fc.oneof(fc.string(), fc.constant('{"agent":"w0","fold":'), fc.constant('{"agent":"w0\\"'), fc.constant('{"sessions":')), { maxLength: 4 })
    .map((lines) => ['{"version":3,"prices":"{}"}', ...lines].join('\n')),
);

/** The summary's lines (spend-summary.ts): a header, a line per agent's folded rows, a line of the other sessions. */
interface SummaryLines {
  header: unknown;
  folds: { agent: string; fold: { names: string[]; rows: unknown[] } }[];
  sessions: { sessions: Record<string, { runs: { parts: unknown[][] }[] }> };
}
function summaryLines(text: string): SummaryLines {
  const [header, ...rest] = text.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
  return {
    header,
    folds: rest.filter((l) => 'agent' in l) as unknown as SummaryLines['folds'],
    sessions: rest.find((l) => 'sessions' in l) as unknown as SummaryLines['sessions'],
  };
}
const summaryText = (s: SummaryLines): string =>
  [s.header, ...s.folds, s.sessions].map((l) => JSON.stringify(l)).join('\n') + '\n';

/**
 * The real summary's folded rows with one value made impossible (a count
 * negative, fractional or past 2^53, a model index out of range, a runs count
 * of 2, a name that climbs out of the folder): that row (or that agent's
 * rows) is read from its file, never trusted. A dollar figure is any number,
 * so it is only made a non-number.
 */
function spoiled(summary: string, at: number, bad: unknown, name: string | null): string {
  const s = summaryLines(summary);
  const fold = s.folds[0]!.fold;
  const i = at % fold.rows.length;
  const costColumn = i % ROW > 2 && (i % ROW) % 6 === 4;
  if (bad === 'model') fold.rows[i - (i % ROW) + 3] = 99;
  else fold.rows[i] = costColumn && typeof bad === 'number' ? 'x' : bad;
  if (name !== null) fold.names[Math.floor(i / ROW)] = name;
  return summaryText(s);
}
const impossible = fc.constantFrom<unknown>(-2, 0.5, 2 ** 60, 'x', null, {}, [], 'model');

it('a garbage or hostile summary is ignored, and the figures are true', async () => {
  for (let i = 0; i < 6; i++) finishedSession(i);
  const want = await truth();
  await fc.assert(
    fc.asyncProperty(garbage, async (text) => {
      writeFileSync(spendSummaryOf(root), text);
      const r = new TranscriptSpendReader(root);
      expect({ spends: await r.spends(), byTask: await r.report('task') }).toEqual(want);
    }),
    { numRuns: 60 },
  );
});

it('a folded row made impossible, or named outside its folder, is read from its file: the figures are true', async () => {
  for (let i = 0; i < 9; i++) finishedSession(i);
  const want = await truth();
  await new TranscriptSpendReader(root).report('task');
  const summary = readFileSync(spendSummaryOf(root), 'utf8');
  expect(summaryLines(summary).folds.length).toBeGreaterThan(0);
  await fc.assert(
    fc.asyncProperty(fc.nat(), impossible, fc.option(fc.constantFrom('../w1/s1.jsonl', '/etc/passwd', '.hidden.jsonl', 'x\\y.jsonl', 'notes.txt')), async (at, bad, name) => {
      writeFileSync(spendSummaryOf(root), spoiled(summary, at, bad, name));
      const r = new TranscriptSpendReader(root);
      expect({ spends: await r.spends(), byTask: await r.report('task') }).toEqual(want);
    }),
    { numRuns: 80 },
  );
});

it('sessions appended to, truncated, removed or replaced after they were summarised count as they are now', async () => {
  const at = (i: number): number => 1_700_000_000_000 + i * 1_000;
  for (let i = 0; i < 8; i++) finishedSession(i, undefined, at(i));
  await new TranscriptSpendReader(root).report('teammate');
  const summary = readFileSync(spendSummaryOf(root), 'utf8');
  await fc.assert(
    fc.asyncProperty(fc.subarray([0, 1, 2, 3, 4, 5, 6, 7]), fc.nat(3), async (touched, how) => {
      for (let i = 0; i < 8; i++) finishedSession(i, undefined, at(i));
      for (const i of touched) {
        const file = sessionFile(root, spec(i));
        if (how === 0) appendFileSync(file, JSON.stringify(line.result(spec(i), { 'claude-haiku-4-5': usage(1, 1) }, 0.5, 1)) + '\n');
        if (how === 1) truncateSync(file, 40);
        if (how === 2) rmSync(file);
        if (how === 3) finishedSession(i, 2);
        if (how !== 2) stamp(file);
      }
      // The summary as it was before the changes (its stamps no longer match the touched files).
      writeFileSync(spendSummaryOf(root), summary);
      const r = new TranscriptSpendReader(root);
      expect({ spends: await r.spends(), byTask: await r.report('task') }).toEqual(await truth());
      // The sessions left alone came from the summary; the touched ones (but the removed) from their files.
      expect(r.sessionsRead).toBe(how === 2 ? 0 : touched.length);
    }),
    { numRuns: 30 },
  );
});

it("a forged summary (every session spent nothing, at its true size and mtime) misleads top and cost, never the lead's budget", async () => {
  for (let i = 0; i < 8; i++) finishedSession(i);
  await new TranscriptSpendReader(root).report('task');
  const file = spendSummaryOf(root);
  const forged = summaryLines(readFileSync(file, 'utf8'));
  for (const entry of Object.values(forged.sessions.sessions))
    for (const run of entry.runs) run.parts = run.parts.map(([model]) => [model, 0, 0, 0, 0, 0]);
  // A folded row: size, mtime, runs, then per model its index, dollars and four token counts.
  for (const { fold } of forged.folds)
    fold.rows = fold.rows.map((n, i) => (i % ROW < 3 || (i % ROW) % 6 === 3 ? n : n === -1 ? -1 : 0));
  writeFileSync(file, summaryText(forged));
  const trusting = await new TranscriptSpendReader(root).spends();
  expect(trusting.reduce((n, s) => n + s.costUsd, 0)).toBe(0); // the forgery works on a reader that trusts the file
  const lead = budgetReader(root, {});
  expect(await lead.spends()).toEqual((await truth()).spends);
  expect(lead.sessionsRead).toBe(8);
});
