import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadTranscript } from '../../src/agent/transcript.js';
import { TeamConfigSchema } from '../../src/config/schema.js';
import { transcriptTail } from '../../src/dashboard/actions.js';
import { collectGarbage } from '../../src/history/gc.js';
import { compressTranscripts } from '../../src/history/transcripts.js';
import { costReport } from '../../src/observe/cost.js';
import { ledgerCallsFromTranscripts } from '../../src/observe/token-ledger-transcripts.js';
import { readSessionFrom } from '../../src/observe/transcript-files.js';
import { sessionFiles, transcriptsRoot } from '../../src/observe/transcript-view.js';
import { teamFactsOf } from '../../src/cli/token-facts.js';
import { line, sessionFile, usage, writeSession, type SessionSpec } from '../dashboard/support/transcripts.js';

const DAY = 86_400_000;
const NOW = Date.parse('2026-11-30T12:00:00.000Z');
let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'teamd-transcripts-gc-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const spec = (session: string, ageDays: number): SessionSpec => ({
  agent: 'w1',
  session,
  parent: session,
  mtime: NOW - ageDays * DAY,
});
const finished = (s: SessionSpec): string =>
  writeSession(root, s, [
    line.header(s),
    line.prompt(s, `Task ${s.session}: do it`),
    line.text(s, `did ${s.session}`, usage(100, 10)),
    line.result(s, { 'claude-sonnet-5-5': usage(100, 10) }, 0.25, 1),
  ]);

/** Old finished sessions, an old unfinished one, a recent one, and the newest (old too, but newest of w1). */
function history(): Record<string, string> {
  return {
    old1: finished(spec('old1', 30)),
    old2: finished(spec('old2', 20)),
    open: writeSession(root, spec('open', 25), [line.header(spec('open', 25)), line.prompt(spec('open', 25), 'Task open: x')]),
    recent: finished(spec('recent', 1)),
  };
}

describe('finished transcripts compressed after history.compressAfterMs', () => {
  it('gc compresses old finished sessions, keeps their mtime, and leaves recent, unfinished and newest ones', async () => {
    const files = history();
    const newest = finished({ ...spec('newest', 0), agent: 'w2' });
    const before = statSync(files.old1!).mtimeMs;
    const dry = await compressTranscripts(root, 7 * DAY, { now: NOW, dryRun: true });
    expect(dry.compressed).toHaveLength(2);
    expect(existsSync(files.old1!)).toBe(true);
    const config = TeamConfigSchema.parse({ teammates: [{ name: 'w1' }] });
    const report = await collectGarbage(root, config, { now: NOW, branches: false });
    const entry = report.logs.find((l) => l.file === '.team/state/transcripts');
    expect(entry?.compressed.sort()).toEqual([
      '.team/state/transcripts/w1/old1.jsonl',
      '.team/state/transcripts/w1/old2.jsonl',
    ]);
    expect(existsSync(files.old1!)).toBe(false);
    expect(statSync(`${files.old1!}.gz`).mtimeMs).toBe(before);
    for (const kept of [files.open!, files.recent!, newest]) expect(existsSync(kept)).toBe(true);
    expect(sessionFiles(root, 'w1').map((f) => f.slice(f.lastIndexOf('/') + 1))).toEqual([
      'old1.jsonl.gz',
      'open.jsonl',
      'old2.jsonl.gz',
      'recent.jsonl',
    ]);
  });

  it('cost, the token ledger, top and logs read a compressed session as they read a plain one', async () => {
    history();
    const facts = teamFactsOf(TeamConfigSchema.parse({ teammates: [{ name: 'w1' }], worktrees: { mode: 'off' } }));
    const cost = await costReport(root, 'task');
    const calls = ledgerCallsFromTranscripts(root, facts);
    const plainText = await readSessionFrom(sessionFile(root, spec('old2', 20)), 0);
    await compressTranscripts(root, 7 * DAY, { now: NOW });
    expect(await costReport(root, 'task')).toEqual(cost);
    expect(ledgerCallsFromTranscripts(root, facts)).toEqual(calls);
    const gz = `${sessionFile(root, spec('old2', 20))}.gz`;
    expect(await readSessionFrom(gz, 0)).toBe(plainText);
    expect(await readSessionFrom(gz, 10)).toBe('');
    rmSync(sessionFile(root, spec('recent', 1)));
    rmSync(sessionFile(root, spec('open', 25)));
    const tail = await transcriptTail(root, TeamConfigSchema.parse({}), 'w1', 20, false);
    expect(tail.lines.join('\n')).toContain('did old2');
  });

  it('a crash that left both forms lists the session once (the plain file); resume restores the plain file', async () => {
    const files = history();
    writeFileSync(`${files.recent!}.gz`, gzipSync('torn'));
    expect(sessionFiles(root, 'w1').filter((f) => f.includes('recent'))).toEqual([files.recent]);
    await compressTranscripts(root, 7 * DAY, { now: NOW });
    const loaded = await loadTranscript(join(transcriptsRoot(root), 'w1'), 'old1');
    expect(loaded.ok).toBe(true);
    expect(existsSync(files.old1!)).toBe(true);
    expect(existsSync(`${files.old1!}.gz`)).toBe(false);
    if (loaded.ok) expect(JSON.stringify(loaded.value.messages)).toContain('did old1');
  });
});

describe('long sessions (the tail read, the streamed gzip)', () => {
  it('a session of several MiB ending in its result is compressed and reads back the same; a last line past the tail is left plain', async () => {
    const big = spec('big', 30);
    const bigFile = writeSession(root, big, [
      line.header(big),
      ...Array.from({ length: 400 }, (_, i) => line.text(big, `chunk ${i} ${'x'.repeat(10_000)}`, usage(1, 1))),
      line.result(big, { 'claude-sonnet-5-5': usage(100, 10) }, 0.25, 1),
    ]);
    const long = spec('long', 29);
    const longFile = writeSession(root, long, [line.header(long), line.prompt(long, `Task long: ${'y'.repeat(70_000)}`)]);
    writeSession(root, spec('newest', 0), [line.header(spec('newest', 0))]);
    const before = readFileSync(bigFile);
    expect(before.length).toBeGreaterThan(16 * 64 * 1024); // many times the tail read
    const report = await compressTranscripts(root, 7 * DAY, { now: NOW });
    expect(report.compressed).toEqual([expect.stringMatching(/big\.jsonl$/)]);
    expect(report.bytesBefore).toBe(before.length);
    expect(existsSync(`${bigFile}.gz`) && !existsSync(bigFile)).toBe(true);
    expect(gunzipSync(readFileSync(`${bigFile}.gz`)).equals(before)).toBe(true);
    expect(report.bytesAfter).toBe(statSync(`${bigFile}.gz`).size);
    expect(existsSync(longFile)).toBe(true); // no result line at its end (its last line is longer than the tail read)
  });
});
