/**
 * Writing a code cache (src/cli/cache-write.ts) with things planted beside
 * it, on real files: a link, FIFO or file at the temp name is never written
 * through (O_EXCL, O_NOFOLLOW; the folder is given up for the next one), one
 * at the cache's name is replaced by the rename, a file outside stays
 * unchanged, and only folders a reader would trust are written to.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { readCacheFile } from '../../src/cli/cache-trust.js';
import { pruneOld, writeCache } from '../../src/cli/cache-write.js';

const root = mkdtempSync(join(tmpdir(), 'teamd-cc-write-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const isRoot = process.getuid?.() === 0;
const DATA = Buffer.from('new cache');

let n = 0;
const fresh = (): string => join(root, `w${n++}`);
const modeOf = (p: string): number => statSync(p).mode & 0o7777;

it('writes atomically to the first folder that takes it, and reports none when no folder does', () => {
  const blocked = join(root, 'a-file');
  writeFileSync(blocked, '');
  const good = join(root, 'ok', 'deep', 'x.bin');
  expect(writeCache([join(blocked, 'x.bin'), good], Buffer.from('data'))).toBe(good);
  expect(readFileSync(good, 'utf8')).toBe('data');
  expect(writeCache([join(blocked, 'y.bin')], Buffer.from('data'))).toBeUndefined();
  expect(readdirSync(join(root, 'ok', 'deep'))).toEqual(['x.bin']); // no temporary file left
});

/** A file outside every cache folder that a planted link points at. */
function victim(): string {
  const file = `${fresh()}-victim.txt`;
  writeFileSync(file, 'victim', { mode: 0o600 });
  return file;
}

/** What can be planted at a name: each leaves `check` to assert nothing was written through it. */
const PLANTS: Record<string, (at: string) => () => void> = {
  'a link to a file outside': (at) => {
    const target = victim();
    symlinkSync(target, at);
    return () => expect(readFileSync(target, 'utf8')).toBe('victim');
  },
  'a dangling link': (at) => {
    const target = `${fresh()}-would-be-made`;
    symlinkSync(target, at);
    return () => expect(existsSync(target)).toBe(false);
  },
  'a link to a folder outside': (at) => {
    const target = fresh();
    mkdirSync(target);
    symlinkSync(target, at);
    return () => expect(readdirSync(target)).toEqual([]);
  },
  'a FIFO': (at) => {
    execFileSync('mkfifo', [at]);
    return () => undefined;
  },
  'a file of the user': (at) => {
    writeFileSync(at, 'kept', { mode: 0o600 });
    return () => undefined;
  },
};

it('a temp name found taken (a link, FIFO or file planted there) is not written through: that folder is given up', () => {
  for (const [what, plant] of Object.entries(PLANTS)) {
    const [first, second] = [join(fresh(), 'x.bin'), join(fresh(), 'x.bin')];
    mkdirSync(join(first, '..'), { mode: 0o700 });
    const tmp = `${first}.planted.tmp`;
    const check = plant(tmp);
    const before = lstatSync(tmp);
    expect(writeCache([first, second], DATA, { tempOf: (f) => (f === first ? tmp : `${f}.ok.tmp`) }), what).toBe(second);
    check();
    expect(lstatSync(tmp).ino, what).toBe(before.ino); // what was planted is still there, not removed: it is not ours
    expect(existsSync(first), what).toBe(false);
    expect(readFileSync(second)).toEqual(DATA);
  }
});

it("an older teamd's temp name (`<cache>.<pid>.tmp`, guessable) planted with a link is left alone: the temp name is fresh", () => {
  const file = join(fresh(), 'x.bin');
  mkdirSync(join(file, '..'), { mode: 0o700 });
  const target = victim();
  symlinkSync(target, `${file}.${process.pid}.tmp`);
  expect(writeCache([file], DATA)).toBe(file);
  expect(readFileSync(target, 'utf8')).toBe('victim');
  expect(readFileSync(file)).toEqual(DATA);
});

it('a link, FIFO or file planted at the cache name is replaced by a regular file of the user, 0600; a file outside is unchanged', () => {
  for (const [what, plant] of Object.entries(PLANTS)) {
    const file = join(fresh(), 'x.bin');
    mkdirSync(join(file, '..'), { mode: 0o700 });
    const check = plant(file);
    expect(writeCache([file], DATA), what).toBe(file);
    check();
    expect(lstatSync(file).isFile(), what).toBe(true);
    expect(modeOf(file)).toBe(0o600);
    expect(readCacheFile(file)).toEqual({ kind: 'read', bytes: DATA });
    expect(readdirSync(join(file, '..'))).toEqual(['x.bin']); // no temp file left
  }
  const asFolder = join(fresh(), 'x.bin');
  mkdirSync(asFolder, { recursive: true, mode: 0o700 });
  const next = join(fresh(), 'x.bin');
  expect(writeCache([asFolder, next], DATA)).toBe(next); // a folder at the name: the next folder
  expect(readdirSync(join(asFolder, '..'))).toEqual(['x.bin']);
});

it('makes missing folders 0700 and its file 0600 whatever the umask', () => {
  const old = process.umask(0);
  try {
    const file = join(fresh(), 'a', 'b', 'x.bin');
    expect(writeCache([file], DATA)).toBe(file);
    expect(modeOf(join(file, '..'))).toBe(0o700);
    expect(modeOf(join(file, '..', '..'))).toBe(0o700);
    expect(modeOf(file)).toBe(0o600);
  } finally {
    process.umask(old);
  }
});

it("writes into no folder a reader would refuse; tightens the user's own (teamd's folders, `tighten`), never another's", () => {
  for (const mode of [0o777, 0o775, 0o1777]) {
    const [open, next] = [join(fresh(), 'x.bin'), join(fresh(), 'x.bin')];
    mkdirSync(join(open, '..'));
    chmodSync(join(open, '..'), mode);
    expect(writeCache([open, next], DATA), mode.toString(8)).toBe(next);
    expect(existsSync(open)).toBe(false);
    expect(modeOf(join(open, '..'))).toBe(mode); // a folder the user named is left as it is
    expect(writeCache([open], DATA, { tighten: true })).toBe(open);
    expect(modeOf(join(open, '..'))).toBe(mode & 0o755);
    expect(readCacheFile(open)).toEqual({ kind: 'read', bytes: DATA });
  }
});

it.skipIf(!isRoot)("never tightens or writes a folder of another uid (as root: chowned to nobody)", () => {
  const foreign = join(fresh(), 'x.bin');
  mkdirSync(join(foreign, '..'), { mode: 0o777 });
  chmodSync(join(foreign, '..'), 0o777);
  chownSync(join(foreign, '..'), 65534, 65534);
  expect(writeCache([foreign], DATA, { tighten: true })).toBeUndefined();
  expect(modeOf(join(foreign, '..'))).toBe(0o777);
  expect(readdirSync(join(foreign, '..'))).toEqual([]);
});

it('a write removes caches and temp files not written for 30 days, and nothing else', () => {
  const folder = fresh();
  mkdirSync(folder);
  for (const n of ['old.bin', 'new.bin', 'old.txt', '.old.bin.1.0.0.ab.tmp']) writeFileSync(join(folder, n), '');
  const longAgo = (Date.now() - 31 * 24 * 3600_000) / 1000;
  utimesSync(join(folder, 'old.bin'), longAgo, longAgo);
  utimesSync(join(folder, 'old.txt'), longAgo, longAgo);
  utimesSync(join(folder, '.old.bin.1.0.0.ab.tmp'), longAgo, longAgo); // left by a writer killed mid-write
  pruneOld(folder);
  expect(readdirSync(folder).sort()).toEqual(['new.bin', 'old.txt']);
  pruneOld(join(root, 'no-such-folder')); // no error
});
