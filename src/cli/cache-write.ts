/**
 * Writing a code cache file (code-cache.ts), atomically: a reader sees the
 * old file or the new one. Only into a folder the reader would trust
 * (cache-trust.ts: a cache it would refuse is not worth writing), through a
 * temp file made afresh — a name nobody can guess, opened with O_EXCL and
 * O_NOFOLLOW, so a link planted beside the cache is never written through —
 * and renamed over the cache's name (which replaces a link or FIFO planted
 * there, never writes into it).
 *
 * Imports Node's built-in modules only (and fresh-temp.ts, which does too):
 * this runs before the bundle.
 */
import { chmodSync, closeSync, constants, mkdirSync, openSync, readdirSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { freshTempOf } from '../store/fresh-temp.js';
import { currentUid, folderDistrust } from './cache-trust.js';

/** As src/observe/spend-summary.ts: a fresh file, never through a link, never blocking on a FIFO. */
const WRITE_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW | constants.O_NONBLOCK;

export interface WriteOptions {
  /**
   * Drop the group's and others' write bits of a cache folder of the user's
   * (teamd's own folders: an older teamd made them with the umask's mode,
   * 0775 under the common umask 002, and every run would refuse them).
   * False for a folder the user named (TEAMD_CODE_CACHE_DIR): it is refused
   * as it is.
   */
  tighten?: boolean;
  /** The temp file's name beside the cache (tests plant a link at it). */
  tempOf?: (file: string) => string;
}

function removeQuietly(file: string): void {
  try {
    rmSync(file, { force: true });
  } catch {
    // its folder is not one (ENOTDIR) or not ours: nothing was left there
  }
}

/** Drops the group's and others' write bits of `dir` when it is the user's. */
function tightenOwn(dir: string): void {
  const s = statSync(dir);
  if (s.isDirectory() && s.uid === currentUid() && s.mode & 0o022) chmodSync(dir, s.mode & 0o755);
}

/** Makes `dir` (0700) when missing; true when the reader would trust it. */
function readyFolder(dir: string, tighten: boolean): boolean {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    if (tighten) tightenOwn(dir);
    return folderDistrust(dir) === undefined;
  } catch {
    return false; // a file on the way (ENOTDIR), read-only, not ours (EPERM)
  }
}

function writeAll(fd: number, data: Buffer): void {
  for (let at = 0; at < data.length; ) at += writeSync(fd, data, at, data.length - at);
}

/** Writes `data` to `file` through the temp file `tmp`, made afresh; false when it could not. */
function writeOne(file: string, data: Buffer, tmp: string): boolean {
  let fd: number;
  try {
    fd = openSync(tmp, WRITE_FLAGS, 0o600);
  } catch {
    return false; // nothing made
  }
  try {
    try {
      writeAll(fd, data);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, file);
    return true;
  } catch {
    removeQuietly(tmp); // made by the open above (O_EXCL)
    return false;
  }
}

/** Writes `data` to the first folder that takes it; the file written, or undefined when none did. */
export function writeCache(files: string[], data: Buffer, o: WriteOptions = {}): string | undefined {
  for (const file of files) {
    if (!readyFolder(dirname(file), o.tighten === true) || !writeOne(file, data, (o.tempOf ?? freshTempOf)(file))) continue;
    pruneOld(dirname(file));
    return file;
  }
  return undefined;
}

/** Caches (and temp files a killed writer left) not written for this long are removed when a new one is written. */
const PRUNE_AFTER_MS = 30 * 24 * 3600_000;

/** Removes the `.bin` and `.tmp` files in `folder` older than PRUNE_AFTER_MS (a write is rare: this runs seldom). */
export function pruneOld(folder: string, now = Date.now()): void {
  let names: string[] = [];
  try {
    names = readdirSync(folder).filter((n) => n.endsWith('.bin') || n.endsWith('.tmp'));
  } catch {
    return;
  }
  for (const name of names) {
    const file = join(folder, name);
    try {
      if (now - statSync(file).mtimeMs > PRUNE_AFTER_MS) removeQuietly(file);
    } catch {
      // gone meanwhile
    }
  }
}
