/**
 * `teamd top`'s kept transcript reader (sweepMs: listings kept, files
 * re-stat'ed on watch hints) must report what a fresh reader reports, and a
 * refresh where nothing changed hands back the same spends and report
 * without reading or grouping again (issue 24: ~20,000 sessions).
 */
import { appendFileSync, mkdtempSync, rmSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { costReport, TranscriptSpendReader } from '../../src/observe/cost.js';
import { line, sessionFile, usage, writeSession, type SessionSpec } from '../dashboard/support/transcripts.js';

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'teamd-cost-kept-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const spec = (agent: string, session: string): SessionSpec => ({ agent, session, parent: `mail:${session}` });
let n = 0;
/** A finished run in a settled file (older than the listing's one second), each time distinct. */
function finished(s: SessionSpec, cost: number): void {
  writeSession(root, s, [line.header(s), line.text(s, 'hi', usage(10, 5)), line.result(s, { 'claude-sonnet-5-5': usage(10, 5) }, cost, 1)]);
  const at = new Date(Date.now() - 600_000 + ++n * 1_000);
  utimesSync(sessionFile(root, s), at, at);
}

const fresh = async () => new TranscriptSpendReader(root).spends();

it('reports what a fresh reader reports, and nothing changed gives the same spends and report', async () => {
  for (let i = 0; i < 20; i++) finished(spec(`w${i % 2}`, `s${i}`), 0.01 * i);
  const kept = new TranscriptSpendReader(root, {}, { sweepMs: 3_600_000 });
  kept.hinted = true;
  const first = await kept.spends();
  expect(first).toEqual(await fresh());
  const report = await costReport(root, 'teammate', { reader: kept });
  expect(await kept.spends()).toBe(first);
  expect(await costReport(root, 'teammate', { reader: kept })).toBe(report);
  // A resumed old session (appended in place: the folder's stamp stays) is seen through its hint.
  const s3 = spec('w1', 's3');
  appendFileSync(sessionFile(root, s3), `${JSON.stringify(line.result(s3, { 'claude-haiku-4-5': usage(1, 1) }, 0.5, 1))}\n`);
  utimesSync(sessionFile(root, s3), new Date(), new Date(Date.now() - 300_000));
  kept.changed(sessionFile(root, s3));
  const after = await kept.spends();
  expect(after).not.toBe(first);
  expect(after).toEqual(await fresh());
  expect((await costReport(root, 'teammate', { reader: kept })).total.costUsd).toBeCloseTo(report.total.costUsd + 0.5);
  finished(spec('w2', 'new'), 1); // a new session and a new agent: listed again
  expect(await kept.spends()).toEqual(await fresh());
  expect(kept.keptSessions).toBe(21);
  // Sessions removed or compressed away are not kept: memory follows the files listed.
  for (let i = 0; i < 10; i++) rmSync(sessionFile(root, spec(`w${i % 2}`, `s${i}`)));
  expect(await kept.spends()).toEqual(await fresh());
  expect(kept.keptSessions).toBe(11);
});
