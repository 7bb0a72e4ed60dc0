/**
 * Which code cache files are read (src/cli/cache-trust.ts), on real files:
 * only a regular file of this user that nobody else may write, in a folder
 * of this user that nobody else may write. A link, a FIFO, a folder, a file
 * of another uid or one writable by others is refused, never followed,
 * never blocked on. What a planted file does to a whole run is in
 * code-cache.test.ts (real processes).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, expect, it } from 'vitest';
import { readCacheFile } from '../../src/cli/cache-trust.js';

const root = mkdtempSync(join(tmpdir(), 'teamd-cc-trust-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const isRoot = process.getuid?.() === 0;
/** A uid that is not this process's (nobody). */
const OTHER_UID = 65534;

let n = 0;
/** A fresh cache folder (0700) holding `x.bin`, with its path. */
function folderWithCache(content = 'cache bytes'): { folder: string; file: string } {
  const folder = join(root, `f${n++}`);
  mkdirSync(folder, { mode: 0o700 });
  const file = join(folder, 'x.bin');
  writeFileSync(file, content, { mode: 0o600 });
  return { folder, file };
}

it('reads a regular file of this user, mode 0600 or 0644, in a folder of the user 0700 or 0755', () => {
  for (const [fileMode, folderMode] of [[0o600, 0o700], [0o644, 0o755], [0o400, 0o500]] as const) {
    const { folder, file } = folderWithCache();
    chmodSync(file, fileMode);
    chmodSync(folder, folderMode);
    expect(readCacheFile(file)).toEqual({ kind: 'read', bytes: Buffer.from('cache bytes') });
    chmodSync(folder, 0o700);
  }
  expect(readCacheFile(join(root, 'no-such-folder', 'x.bin'))).toEqual({ kind: 'absent' });
  expect(readCacheFile(join(folderWithCache().folder, 'other.bin'))).toEqual({ kind: 'absent' });
});

it('refuses a file any mode lets the group or others write, for every mode', () => {
  fc.assert(
    fc.property(fc.integer({ min: 0, max: 0o777 }), (mode) => {
      const { file } = folderWithCache();
      chmodSync(file, mode);
      const read = readCacheFile(file);
      const readable = isRoot || (mode & 0o400) !== 0;
      if (!readable) expect(read).toEqual({ kind: 'refused', why: 'open: EACCES' });
      else if ((mode & 0o022) !== 0) expect(read).toEqual({ kind: 'refused', why: `writable by others (mode ${mode.toString(8)})` });
      else expect(read.kind).toBe('read');
    }),
    { numRuns: 60 },
  );
});

it('refuses a file in a folder the group or others may write, sticky or not', () => {
  for (const mode of [0o777, 0o775, 0o757, 0o1777, 0o720, 0o702]) {
    const { folder, file } = folderWithCache();
    chmodSync(folder, mode);
    expect(readCacheFile(file), mode.toString(8)).toEqual({ kind: 'refused', why: `its folder is writable by others (mode ${mode.toString(8)})` });
    chmodSync(folder, 0o700);
  }
});

it('refuses a link at the cache name, to a file of the user or nowhere, and leaves its target alone', () => {
  const outside = join(root, 'victim.txt');
  writeFileSync(outside, 'victim', { mode: 0o600 });
  const good = folderWithCache('a real cache').file;
  for (const target of [outside, good, join(root, 'dangling'), root]) {
    const { file } = folderWithCache();
    rmSync(file);
    symlinkSync(target, file);
    expect(readCacheFile(file), target).toEqual({ kind: 'refused', why: 'a symbolic link' });
  }
  expect(readCacheFile(outside).kind).toBe('read'); // untouched
});

/** readCacheFile in a child process, which is killed if the read blocks (a FIFO with no writer blocks a plain open). */
function readInChild(file: string): unknown {
  const script = `const { readCacheFile } = await import(${JSON.stringify(new URL('../../src/cli/cache-trust.ts', import.meta.url).href)});
    console.log(JSON.stringify(readCacheFile(${JSON.stringify(file)})));`;
  const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8', timeout: 20_000 });
  expect(r.signal, 'the read blocked').toBeNull();
  return JSON.parse(r.stdout);
}

it('refuses a FIFO at once (no writer: an open without O_NONBLOCK would block), a folder, a device node', () => {
  const { file } = folderWithCache();
  rmSync(file);
  execFileSync('mkfifo', [file]);
  expect(readInChild(file)).toEqual({ kind: 'refused', why: 'not a regular file' });
  const asFolder = folderWithCache().file;
  rmSync(asFolder);
  mkdirSync(asFolder);
  expect(readCacheFile(asFolder)).toEqual({ kind: 'refused', why: 'not a regular file' });
  if (isRoot) {
    const device = folderWithCache().file;
    rmSync(device);
    execFileSync('mknod', [device, 'c', '1', '3']); // /dev/null's numbers
    expect(readCacheFile(device)).toEqual({ kind: 'refused', why: 'not a regular file' });
  }
});

it.skipIf(!isRoot)('refuses a file or a folder of another uid (as root: chowned to nobody)', () => {
  const { file } = folderWithCache();
  chownSync(file, OTHER_UID, OTHER_UID);
  expect(readCacheFile(file)).toEqual({ kind: 'refused', why: `owned by uid ${OTHER_UID}` });
  const inForeign = folderWithCache();
  chownSync(inForeign.folder, OTHER_UID, OTHER_UID);
  expect(readCacheFile(inForeign.file)).toEqual({ kind: 'refused', why: `its folder is owned by uid ${OTHER_UID}` });
  // as the other user sees it: root's 0600 file in root's folder is not theirs
  const mine = folderWithCache();
  expect(readCacheFile(mine.file, OTHER_UID)).toEqual({ kind: 'refused', why: 'owned by uid 0' });
});
