/**
 * Links and FIFOs planted where teamd writes or reads its own history and
 * state. Anyone who can write the repository (a teammate's bash, a cloned
 * repository) can put a link at a path teamd will write (a temp name it can
 * guess, an archive, a session), and `w`/`a+` would write through it into any
 * file of the user's; or a FIFO where teamd reads, which blocked `top`,
 * `cost` and the lead's budget check in `open` forever. Each case is
 * generated: which names are planted, and with what.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { threadId } from 'node:worker_threads';
import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadTranscript } from '../../src/agent/transcript.js';
import { compressTranscripts } from '../../src/history/transcripts.js';
import { TranscriptSpendReader } from '../../src/observe/cost.js';
import { spendSummaryOf } from '../../src/observe/spend-summary.js';
import { readSessionFrom, readSessionOnSync, readSessionText } from '../../src/observe/transcript-files.js';
import { writeFileAtomic } from '../../src/store/atomic.js';
import { appendArchive, readArchive } from '../../src/store/mailbox/archive.js';
import { compressQuietSegments, listSegments, readSegmentText, segmentsFolder } from '../../src/store/segments.js';
import type { Message } from '../../src/store/types.js';
import { line, sessionFile, usage, writeSession, type SessionSpec } from '../dashboard/support/transcripts.js';

type Plant = 'victim-link' | 'victim-dir-link' | 'dangling-link' | 'fifo' | 'folder';
const PLANTS: Plant[] = ['victim-link', 'victim-dir-link', 'dangling-link', 'fifo', 'folder'];
const plant = fc.constantFrom(...PLANTS);
const LINKS: Plant[] = ['victim-link', 'victim-dir-link', 'dangling-link'];

const VICTIM_TEXT = 'the user\'s own file: teamd must never write here\n';
const OLD = new Date(Date.now() - 30 * 86_400_000);
let root: string;
let outside: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'teamd-planted-'));
  outside = mkdtempSync(join(tmpdir(), 'teamd-planted-outside-'));
});
afterEach(() => {
  rmSync(root, { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
});

/** A file outside the repository (old, finished-looking: what a follower of links would take for history). */
function victim(name = 'victim'): string {
  const file = join(outside, name);
  writeFileSync(file, VICTIM_TEXT);
  utimesSync(file, OLD, OLD);
  return file;
}

/** Puts `kind` at each path; their own times are set old too (lutimes is not in node:fs; touch -h is). */
function put(paths: string | string[], kind: Plant, target: string, old = true): void {
  const all = typeof paths === 'string' ? [paths] : paths;
  for (const path of all) {
    mkdirSync(join(path, '..'), { recursive: true });
    if (kind === 'victim-link') symlinkSync(target, path);
    if (kind === 'victim-dir-link') symlinkSync(outside, path);
    if (kind === 'dangling-link') symlinkSync(join(outside, 'no-such-file'), path);
    if (kind === 'folder') mkdirSync(path);
  }
  if (kind === 'fifo') execFileSync('mkfifo', all);
  if (old) execFileSync('touch', ['-h', '-d', OLD.toISOString(), ...all]);
}

/** Every file outside holds what it held: nothing was written through a link. */
function outsideUntouched(): void {
  for (const name of readdirSync(outside)) expect(readFileSync(join(outside, name), 'utf8')).toBe(VICTIM_TEXT);
  expect(readdirSync(outside).every((n) => n.startsWith('victim'))).toBe(true);
}

const message = (i: number): Message => ({
  id: `m-${i}`,
  from: 'lead',
  to: 'w1',
  type: 'message',
  content: `hello ${i}`,
  metadata: {},
  ts: new Date(1_700_000_000_000 + i).toISOString(),
});

describe('writes never go through a planted link', () => {
  it('an atomic write: guessable temp names planted (this process, this thread, counters 0–299) are never written through', async () => {
    await fc.assert(
      fc.asyncProperty(plant, fc.boolean(), async (kind, durable) => {
        const target = victim();
        const dir = join(root, '.tasks');
        rmSync(dir, { recursive: true, force: true });
        const guesses = Array.from({ length: 300 }, (_, k) => join(dir, `.t1.json.${process.pid}.${threadId}.${k.toString(36)}.tmp`));
        put(guesses, kind, target, false);
        for (let i = 0; i < 3; i++) await writeFileAtomic(join(dir, 't1.json'), `{"n":${i}}`, { durable });
        expect(readFileSync(join(dir, 't1.json'), 'utf8')).toBe('{"n":2}');
        expect(lstatSync(join(dir, 't1.json')).isFile()).toBe(true);
        outsideUntouched();
      }),
      { numRuns: 10 },
    );
  });

  it('a mailbox archive planted as a link, FIFO or folder is moved aside and a fresh archive begun; delivery goes on', async () => {
    await fc.assert(
      fc.asyncProperty(plant, fc.boolean(), async (kind, durable) => {
        const target = victim();
        const dir = join(root, '.mailboxes', 'archive');
        rmSync(dir, { recursive: true, force: true });
        const file = join(dir, 'w1.jsonl');
        put(file, kind, target);
        await appendArchive(file, [message(1), message(2)], durable);
        await appendArchive(file, [message(3)], durable);
        expect(lstatSync(file).isFile()).toBe(true);
        expect((await readArchive(file, 'w1.jsonl')).messages.map((m) => m.id)).toEqual(['m-1', 'm-2', 'm-3']);
        const aside = readdirSync(dir).filter((n) => n.startsWith('w1.jsonl.refused-'));
        expect(aside).toHaveLength(1);
        outsideUntouched();
      }),
      { numRuns: 20 },
    );
  });

  it('the spend summary: its temp name planted is never written through', async () => {
    await fc.assert(
      fc.asyncProperty(plant, async (kind) => {
        const target = victim();
        rmSync(join(root, '.team'), { recursive: true, force: true });
        const s: SessionSpec = { agent: 'w1', session: 's1', parent: 't-1', mtime: OLD.getTime() };
        writeSession(root, s, [line.header(s), line.text(s, 'a', usage(10, 1)), line.result(s, { 'claude-haiku-4-5': usage(10, 1) }, 0.01, 1)]);
        put(`${spendSummaryOf(root)}.${process.pid}.tmp`, kind, target);
        await new TranscriptSpendReader(root).report('task');
        outsideUntouched();
      }),
      { numRuns: 10 },
    );
  });

  it('a compressed session restored for a resume: a planted restore temp is never written through', async () => {
    await fc.assert(
      fc.asyncProperty(plant, async (kind) => {
        const target = victim();
        const dir = join(root, 'sessions');
        rmSync(dir, { recursive: true, force: true });
        mkdirSync(dir, { recursive: true });
        const header = { type: 'session', sessionId: 's1', cwd: root, version: 1 };
        writeFileSync(join(dir, 's1.jsonl.gz'), gzipSync(`${JSON.stringify(header)}\n`));
        put(join(dir, 's1.jsonl.restore.tmp'), kind, target);
        await loadTranscript(dir, 's1');
        expect(existsSync(join(dir, 's1.jsonl'))).toBe(true);
        outsideUntouched();
      }),
      { numRuns: 10 },
    );
  });
});

describe('history is never read or compressed through a planted link or FIFO', () => {
  const finished = (s: SessionSpec): string =>
    writeSession(root, s, [line.header(s), line.text(s, 'did it', usage(100, 10)), line.result(s, { 'claude-haiku-4-5': usage(100, 10) }, 0.25, 1)]);

  it('sessions planted as links, FIFOs or folders are read as gone by every reader (no hang, no content)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(plant, { minLength: 1, maxLength: 5 }), async (kinds) => {
        const target = victim();
        writeFileSync(target, `${JSON.stringify(line.result({ agent: 'w1', session: 'x', parent: 'x' }, { 'claude-haiku-4-5': usage(1e9, 1e9) }, 999, 1))}\n`);
        rmSync(join(root, '.team'), { recursive: true, force: true });
        finished({ agent: 'w1', session: 'real', parent: 't-1', mtime: OLD.getTime() });
        kinds.forEach((kind, i) => put(sessionFile(root, { agent: 'w1', session: `p${i}`, parent: 'x' }), kind, target));
        const report = await new TranscriptSpendReader(root, {}, { summary: false }).spends();
        expect(report.reduce((n, s) => n + s.costUsd, 0)).toBeCloseTo(0.25, 6); // the real session only
        for (let i = 0; i < kinds.length; i++) {
          const file = sessionFile(root, { agent: 'w1', session: `p${i}`, parent: 'x' });
          expect(() => readSessionText(file)).toThrow();
          expect(await readSessionFrom(file, 0)).toBe('');
          expect(readSessionOnSync(file, null).text).toBe('');
        }
        writeFileSync(target, VICTIM_TEXT);
      }),
      { numRuns: 15 },
    );
  });

  it('gc compresses only regular finished sessions: planted sessions and planted .gz.tmp names are left as they are', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(plant, { minLength: 1, maxLength: 4 }), plant, async (kinds, tmpKind) => {
        const target = victim();
        rmSync(join(root, '.team'), { recursive: true, force: true });
        const real = finished({ agent: 'w1', session: 'real', parent: 't-1', mtime: OLD.getTime() });
        finished({ agent: 'w1', session: 'newest', parent: 't-2', mtime: Date.now() - 86_400_000 });
        kinds.forEach((kind, i) => put(sessionFile(root, { agent: 'w1', session: `p${i}`, parent: 'x' }), kind, target));
        put(`${real}.gz.tmp`, tmpKind, target);
        const report = await compressTranscripts(root, 7 * 86_400_000);
        expect(report.compressed).toEqual(['.team/state/transcripts/w1/real.jsonl']);
        kinds.forEach((kind, i) => {
          const planted = sessionFile(root, { agent: 'w1', session: `p${i}`, parent: 'x' });
          expect(lstatSync(planted).isSymbolicLink()).toBe(LINKS.includes(kind));
          expect(existsSync(`${planted}.gz`)).toBe(false);
        });
        outsideUntouched();
      }),
      { numRuns: 20 },
    );
  });

  it('log segments: a planted segment is not listed, not compressed through, and a FIFO reads as empty', async () => {
    await fc.assert(
      fc.asyncProperty(plant, async (kind) => {
        const target = victim();
        const dir = join(root, 'logs');
        rmSync(dir, { recursive: true, force: true });
        const folder = segmentsFolder(dir);
        mkdirSync(folder, { recursive: true });
        const realSegment = join(folder, 'events.20260101T000000000Z-000-1.jsonl');
        writeFileSync(realSegment, '{"type":"x"}\n');
        utimesSync(realSegment, OLD, OLD);
        const planted = join(folder, 'events.20260102T000000000Z-000-1.jsonl');
        put(planted, kind, target);
        put(join(folder, '.events.20260101T000000000Z-000-1.jsonl.gz.tmp'), kind, target);
        expect((await listSegments(dir, 'events.jsonl')).map((s) => s.path)).toEqual([realSegment]);
        expect(readSegmentText({ path: planted, compressed: false })).toBe('');
        const report = await compressQuietSegments(dir, 'events.jsonl', { quietMs: 0 });
        expect(report.compressed).toEqual([realSegment]);
        expect(readSegmentText({ path: `${realSegment}.gz`, compressed: true })).toBe('{"type":"x"}\n');
        outsideUntouched();
      }),
      { numRuns: 10 },
    );
  });
});
