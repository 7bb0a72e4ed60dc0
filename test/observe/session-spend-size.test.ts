/**
 * `teamd top` keeps every session's spend (~20,000 on the soak's repository,
 * issue 24), so a kept session holds what it needs at its size: its lists at
 * their length (a list grown by `push` keeps room for 16), no empty list of
 * its own, one string per agent and model name. Read from the files and
 * restored from the summary alike; the spends are the same either way.
 */
import { mkdtempSync, rmSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';
import { setFlagsFromString } from 'node:v8';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { TranscriptSpendReader } from '../../src/observe/cost.js';
import { exact, noItems, pushed } from '../../src/observe/session-spend.js';
import { line, usage, writeSession } from '../dashboard/support/transcripts.js';

let root: string;
beforeEach(() => void (root = mkdtempSync(join(tmpdir(), 'teamd-spend-size-'))));
afterEach(() => rmSync(root, { recursive: true, force: true }));

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const SESSIONS = 3_000;

function writeFinished(n: number): void {
  const at = new Date(Date.now() - 3_600_000);
  for (let i = 0; i < n; i++) {
    const s = { agent: `w${i % 4}`, session: `s${i}`, parent: `mail:m-${i}` };
    const model = 'claude-sonnet-4-5';
    const file = writeSession(root, s, [line.header(s), line.text(s, 'a', usage(100, 10), model), line.result(s, { [model]: usage(100, 10) }, 0.01, 1)]);
    utimesSync(file, at, at);
  }
}

/** The heap a reader holds after its first report, per session (bytes). */
async function heapPerSession(): Promise<{ bytes: number; reader: TranscriptSpendReader }> {
  gc();
  const before = process.memoryUsage().heapUsed;
  const reader = new TranscriptSpendReader(root, {}, { sweepMs: 60_000 });
  await reader.report('teammate');
  gc();
  return { bytes: (process.memoryUsage().heapUsed - before) / SESSIONS, reader };
}

it('the shared empty list is never written to; pushed gives a list of its own', () => {
  const none = noItems<number>();
  expect(Object.isFrozen(none)).toBe(true);
  const one = pushed(none, 1);
  expect(one).toEqual([1]);
  expect(none).toEqual([]);
  expect(pushed(one, 2)).toBe(one);
  expect(exact([])).toBe(noItems());
  expect(exact(one)).toEqual([1, 2]);
});

it('a finished session kept by a reader costs its size: ~230 bytes of heap restored (a folded row and its stamp), read from its file or restored from the summary', async () => {
  writeFinished(SESSIONS);
  const fromFiles = await heapPerSession();
  const report = await fromFiles.reader.report('teammate');
  fromFiles.reader.close();
  const fromSummary = await heapPerSession(); // the first reader wrote the summary
  expect(await fromSummary.reader.report('teammate')).toEqual(report);
  expect(fromSummary.reader.sessionsRead).toBe(0);
  fromSummary.reader.close();
  // Before: ~1,340 and ~1,020 bytes (the first includes the reader's code warming up); then ~1,160 and ~840;
  // with settled sessions folded into rows and the listing's stamps in an array (folded-sessions.ts,
  // file-stamps.ts): ~450 and ~230, the listing included.
  expect(fromFiles.bytes).toBeLessThan(600);
  expect(fromSummary.bytes).toBeLessThan(330);
  expect(fromSummary.reader.objectSessions).toBe(0);
  expect(report.total.runs).toBe(SESSIONS);
});
