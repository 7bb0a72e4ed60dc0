/**
 * `teamd top`'s transcript listing (session-listing.ts) stats only what a
 * watcher named, what is new or recent, and everything once a sweep is due;
 * given a hint for every write, it must always list what a full listing
 * (`sessionFileStats`) lists.
 */
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { SessionListing, SWEEP_MS_PER_FILE } from '../../src/observe/session-listing.js';
import { sessionFileStats, transcriptsRoot } from '../../src/observe/transcript-view.js';

let root: string;
let dir: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'teamd-listing-'));
  dir = join(transcriptsRoot(root), 'w1');
  mkdirSync(dir, { recursive: true });
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

/** Files and the folder written a minute ago or more (settled: see SETTLED_MS); `n` keeps each time distinct. */
let n = 0;
const write = (name: string, text: string): void => {
  writeFileSync(join(dir, name), text);
  const at = new Date(Date.now() - 600_000 + ++n * 1_000);
  utimesSync(join(dir, name), at, at);
};
const settleDir = (): void => utimesSync(dir, new Date(), new Date(Date.now() - 60_000 - ++n));

it('a large folder is swept less often: every SWEEP_MS_PER_FILE per file, when that is longer than sweepMs', () => {
  let now = Date.now();
  const files = 7_000; // 70 s of sweep interval against a sweepMs of 60 s
  for (let i = 0; i < files; i++) writeFileSync(join(dir, `s${i}.jsonl`), 'x\n');
  const old = new Date(now - 600_000);
  for (let i = 0; i < files; i++) utimesSync(join(dir, `s${i}.jsonl`), old, old);
  settleDir();
  const listing = new SessionListing(dir, 60_000, () => now);
  expect(listing.changes(true).changed).toHaveLength(files);
  writeFileSync(join(dir, 's0.jsonl'), 'x, y\n'); // in place, no hint: only a sweep finds it
  utimesSync(join(dir, 's0.jsonl'), old, new Date(now - 500_000));
  now += 60_000;
  expect(listing.changes(true).changed).toEqual([]);
  now += (files * SWEEP_MS_PER_FILE) - 60_000;
  expect(listing.changes(true).changed.map((f) => f.size)).toEqual([5]);
});

it('re-stats an old file only when a watcher names it or a sweep is due', () => {
  let now = Date.now();
  const listing = new SessionListing(dir, 60_000, () => now);
  write('a.jsonl', 'one\n');
  settleDir();
  expect(listing.current(true).map((f) => f.size)).toEqual([4]);
  write('a.jsonl', 'one, two\n'); // in place: the folder's stamp does not change
  settleDir();
  expect(listing.current(true).map((f) => f.size)).toEqual([4]); // no hint: not stat'ed
  listing.hint('a.jsonl');
  expect(listing.current(true).map((f) => f.size)).toEqual([9]);
  write('a.jsonl', 'one, two, three\n');
  settleDir();
  now += 60_000; // a missed event waits for the sweep at most
  expect(listing.current(true).map((f) => f.size)).toEqual([16]);
  write('a.jsonl', 'four\n');
  expect(listing.current(false).map((f) => f.size)).toEqual([5]); // no watcher: every refresh sweeps
});

type Step = { kind: 'write'; name: string; text: string } | { kind: 'remove'; name: string };
const names = fc.constantFrom('a.jsonl', 'b.jsonl', 'c.jsonl.gz', 'c.jsonl', 'notes.txt');
const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant('write' as const), name: names, text: fc.string({ maxLength: 8 }) }),
  fc.record({ kind: fc.constant('remove' as const), name: names }),
);

it('lists what a full listing lists after any writes, creations and removals, given their hints', () => {
  fc.assert(
    fc.property(fc.array(fc.array(step, { maxLength: 4 }), { maxLength: 6 }), (rounds) => {
      rmSync(dir, { recursive: true, force: true });
      mkdirSync(dir);
      const listing = new SessionListing(dir, 3_600_000);
      for (const round of rounds) {
        for (const s of round) {
          if (s.kind === 'write') write(s.name, s.text);
          else rmSync(join(dir, s.name), { force: true });
          listing.hint(s.name);
        }
        expect(listing.current(true)).toEqual(sessionFileStats(root, 'w1'));
      }
    }),
    { numRuns: 40 },
  );
});

it('with its own watcher, a write in place to an old file is seen at the next refresh (one watcher per folder)', async () => {
  const listing = new SessionListing(dir, 3_600_000);
  write('a.jsonl', 'one\n');
  settleDir();
  let seen: () => void = () => undefined;
  expect(listing.watch(() => seen())).toBe(true);
  expect(listing.current(listing.watching).map((f) => f.size)).toEqual([4]);
  const event = new Promise<void>((resolve) => (seen = resolve));
  write('a.jsonl', 'one, two\n');
  await event;
  expect(listing.current(listing.watching).map((f) => f.size)).toEqual([9]);
  listing.close();
  expect(listing.watching).toBe(false);
});

it('with its own watcher, finds files created, removed and compressed from their events alone (no listing between sweeps)', async () => {
  write('a.jsonl', 'aaaa');
  const listing = new SessionListing(dir, 3_600_000);
  let events = 0;
  let wake: (() => void) | null = null;
  expect(listing.watch(() => (events++, wake?.()))).toBe(true);
  const names = () => listing.current(true).map((f) => f.file.slice(dir.length + 1)).sort();
  /** Waits for watch events until the listing shows `want` (each event a chance; 5 s at most). */
  const until = async (want: string[]): Promise<void> => {
    const deadline = Date.now() + 5_000;
    while (JSON.stringify(names()) !== JSON.stringify(want)) {
      if (Date.now() > deadline) throw new Error(`listing ${JSON.stringify(names())}, want ${JSON.stringify(want)} (${events} events)`);
      await new Promise<void>((resolve) => {
        wake = resolve;
        setTimeout(resolve, 200).unref();
      });
    }
  };
  try {
    expect(names()).toEqual(['a.jsonl']);
    write('b.jsonl', 'bb');
    await until(['a.jsonl', 'b.jsonl']);
    rmSync(join(dir, 'a.jsonl'));
    await until(['b.jsonl']);
    // gc: the compressed form written beside the plain one, then the plain one removed.
    write('b.jsonl.gz', 'zz');
    await until(['b.jsonl']);
    rmSync(join(dir, 'b.jsonl'));
    await until(['b.jsonl.gz']);
    expect(names()).toEqual(sessionFileStats(root, 'w1').map((f) => f.file.slice(dir.length + 1)).sort());
  } finally {
    listing.close();
  }
});
