/**
 * An idle lead rewrites each status file only to move its heartbeat, and each
 * write woke `teamd top` for a refresh (issue 24): such hints are dropped, the
 * BEAT column follows at the next interval refresh. Any other change must
 * still refresh at once.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { BeatHints } from '../../src/dashboard/beat-hints.js';

let dir: string;
beforeEach(() => {
  dir = join(mkdtempSync(join(tmpdir(), 'teamd-beats-')), 'agents');
  mkdirSync(dir);
});
afterEach(() => rmSync(join(dir, '..'), { recursive: true, force: true }));

const status = (over: Record<string, unknown> = {}) =>
  JSON.stringify({ name: 'w1', state: 'idle', task: null, heartbeat: new Date().toISOString(), turns: 3, ...over }, null, 2);
const write = (text: string) => writeFileSync(join(dir, 'w1.json'), text);

it('a heartbeat alone needs no refresh; a first sight, another field, a gone file or another folder do', () => {
  const beats = new BeatHints(dir);
  write(status({ heartbeat: '2026-01-01T00:00:00.000Z' }));
  expect(beats.matters(dir, 'w1.json')).toBe(true);
  write(status({ heartbeat: '2026-01-01T00:00:05.000Z' }));
  expect(beats.matters(dir, 'w1.json')).toBe(false);
  expect(beats.matters(dir, '.w1.json.1.0.a.tmp')).toBe(false);
  write(status({ heartbeat: '2026-01-01T00:00:10.000Z', state: 'working', task: 't1' }));
  expect(beats.matters(dir, 'w1.json')).toBe(true);
  rmSync(join(dir, 'w1.json'));
  expect(beats.matters(dir, 'w1.json')).toBe(true);
  expect(beats.matters(dir, null)).toBe(true);
  expect(beats.matters(join(dir, '..'), 'events.jsonl')).toBe(true);
});

it('any change besides the heartbeat refreshes at once (generated)', () => {
  const field = fc.constantFrom('state', 'task', 'turns', 'costUsd', 'model');
  const value = fc.oneof(fc.string(), fc.integer(), fc.constant(null));
  fc.assert(
    fc.property(field, value, value, fc.date({ noInvalidDate: true }), (key, a, b, at) => {
      const beats = new BeatHints(dir);
      write(status({ [key]: a }));
      beats.matters(dir, 'w1.json');
      write(status({ [key]: b, heartbeat: at.toISOString() }));
      expect(beats.matters(dir, 'w1.json')).toBe(JSON.stringify(a) !== JSON.stringify(b));
    }),
    { numRuns: 100 },
  );
});

it('a FIFO, a link to a secret or a huge file in agents/ is refused unread (a refresh, never a hang)', () => {
  const beats = new BeatHints(dir);
  execFileSync('mkfifo', [join(dir, 'fifo.json')]);
  expect(beats.matters(dir, 'fifo.json')).toBe(true); // readFileSync would block here forever
  writeFileSync(join(dir, '..', 'secret'), 'token');
  symlinkSync(join(dir, '..', 'secret'), join(dir, 'link.json'));
  expect(beats.matters(dir, 'link.json')).toBe(true);
  expect(beats.matters(dir, 'link.json')).toBe(true); // never remembered: it is not a status
  writeFileSync(join(dir, 'huge.json'), Buffer.alloc(2 * 1024 * 1024, 0x20));
  expect(beats.matters(dir, 'huge.json')).toBe(true);
  expect(beats.matters(dir, 'huge.json')).toBe(true);
});
