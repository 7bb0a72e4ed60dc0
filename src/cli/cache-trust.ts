/**
 * Which code cache files are read (code-cache.ts). V8 runs a cache's data as
 * code and checks only that it fits the source's length, so a file another
 * local user could have made or changed is refused: the file must be a
 * regular file of this user that nobody else may write, in a folder of this
 * user that nobody else may write (no one else can add, replace or rename a
 * file there). The file is opened without following a link and checked on
 * the open descriptor (fstat), so what is checked is what is read. A
 * refused file is no error: the run compiles from source, as with no cache.
 *
 * Imports Node's built-in modules only: this runs before the bundle.
 */
import { closeSync, constants, fstatSync, openSync, readFileSync, statSync, type Stats } from 'node:fs';
import { dirname } from 'node:path';

/** What reading one cache file found. */
export type CacheRead =
  | { kind: 'absent' }
  /** There, but not to be trusted (or not readable): `why` says which. */
  | { kind: 'refused'; why: string }
  | { kind: 'read'; bytes: Buffer };

/** The user whose files are trusted; undefined where there are no POSIX owners (Windows). */
export const currentUid = (): number | undefined => process.getuid?.();

/**
 * Why `s` (a cache file, or its folder) is not to be trusted by `uid`, or
 * undefined when it is: not a regular file (a folder), not the user's, or
 * writable by its group or by others.
 */
export function distrustOf(s: Stats, kind: 'file' | 'folder', uid: number | undefined): string | undefined {
  if (kind === 'file' ? !s.isFile() : !s.isDirectory()) return kind === 'file' ? 'not a regular file' : 'not a folder';
  if (uid === undefined) return undefined;
  if (s.uid !== uid) return `owned by uid ${s.uid}`;
  if (s.mode & 0o022) return `writable by others (mode ${(s.mode & 0o7777).toString(8)})`;
  return undefined;
}

/** Why the folder `dir` is not to be trusted, undefined when it is; `absent` when there is none. */
export function folderDistrust(dir: string, uid = currentUid()): string | undefined | 'absent' {
  try {
    return distrustOf(statSync(dir), 'folder', uid);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return code === 'ENOENT' || code === 'ENOTDIR' ? 'absent' : `unreadable (${code})`;
  }
}

/** A link is refused at the open, and a FIFO or device does not block it (it is refused by fstat). */
const READ_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;

const refused = (why: string): CacheRead => ({ kind: 'refused', why });

/** Opens, checks and reads the cache file `file`. */
export function readCacheFile(file: string, uid = currentUid()): CacheRead {
  const folder = folderDistrust(dirname(file), uid);
  if (folder === 'absent') return { kind: 'absent' };
  let fd: number;
  try {
    fd = openSync(file, READ_FLAGS);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { kind: 'absent' };
    return refused(code === 'ELOOP' || code === 'EMLINK' ? 'a symbolic link' : `open: ${code}`);
  }
  try {
    const why = distrustOf(fstatSync(fd), 'file', uid) ?? (folder && `its folder is ${folder}`);
    return why ? refused(why) : { kind: 'read', bytes: readFileSync(fd) };
  } catch (err) {
    return refused(`read: ${(err as NodeJS.ErrnoException).code}`);
  } finally {
    closeSync(fd);
  }
}
