import { mkdirSync, rmdirSync, statSync, utimesSync, type Stats } from 'node:fs';
import { dirname } from 'node:path';

/**
 * The cross-process half of a lock: a directory created with mkdir (atomic on
 * every local and network file system), removed to release. A holder refreshes
 * its mtime while it holds the lock; a lock whose mtime is older than `staleMs`
 * was left by a dead process and is taken over.
 *
 * Every file operation is synchronous: each is one small metadata syscall, and
 * on a worker thread a round trip through libuv's thread pool (a queue, a
 * futex wake, an eventfd write) costs more than the syscall itself.
 */
export interface HeldLock {
  readonly path: string;
  /** The directory as we made it: a release removes the directory only while it is still ours. */
  readonly ino: number;
  readonly bornMs: number;
  /** The mtime we gave it (at creation or the last refresh). */
  mtimeMs: number;
  readonly staleMs: number;
  refreshedAt: number;
  readonly onCompromised: (err: Error) => void;
}

/** What one attempt to take the lock found. */
export type AttemptResult = { taken: HeldLock } | { busy: true };

const REFRESH_TICK_MS = 1_000;
const held = new Set<HeldLock>();
let ticker: NodeJS.Timeout | undefined;

/** One attempt: creates the lock directory, or takes over a stale one, or reports it busy. Throws on I/O errors. */
export function tryAcquire(path: string, staleMs: number, onCompromised: (err: Error) => void): AttemptResult {
  if (!makeDir(path) && !(takeOverIfStale(path, staleMs) && makeDir(path))) return { busy: true };
  const made = statSync(path);
  const lock: HeldLock = {
    path,
    ino: made.ino,
    bornMs: made.birthtimeMs,
    mtimeMs: made.mtimeMs,
    staleMs,
    refreshedAt: Date.now(),
    onCompromised,
  };
  held.add(lock);
  ticker ??= setInterval(refreshHeld, REFRESH_TICK_MS).unref();
  return { taken: lock };
}

/** Removes the lock directory if it is still ours; a lock taken over meanwhile is reported, never removed. */
export function release(lock: HeldLock): void {
  if (!held.delete(lock)) return; // already reported lost by the refresh
  if (!stillOurs(lock)) {
    lock.onCompromised(new Error(`${lock.path}: the lock was taken over or removed while held`));
    return;
  }
  rmdirSync(lock.path);
}

/** True when this call created the directory; false when it exists. Creates the parent folder once if missing. */
function makeDir(path: string): boolean {
  try {
    mkdirSync(path);
    return true;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return false;
    if (code !== 'ENOENT') throw err;
    mkdirSync(dirname(path), { recursive: true });
    return makeDir(path);
  }
}

/**
 * Removes `path` when its holder stopped refreshing it `staleMs` ago. Two
 * contenders that both saw it stale must not both remove it (the second would
 * remove the lock the first just took), so the removal runs under a second,
 * short-lived directory and re-checks the staleness there.
 * True when the lock is gone (removed, or released meanwhile).
 */
function takeOverIfStale(path: string, staleMs: number): boolean {
  const seen = statOrNull(path);
  if (seen === null) return true;
  if (!isStale(seen, staleMs)) return false;
  const guard = `${path}.takeover`;
  if (!makeDir(guard)) {
    // A contender died during its takeover: its guard is stale too.
    if (isStale(statOrNull(guard), staleMs)) removeDir(guard);
    return false;
  }
  try {
    const now = statOrNull(path);
    if (now && !isStale(now, staleMs)) return false;
    removeDir(path);
    return true;
  } finally {
    removeDir(guard);
  }
}

const isStale = (stats: Stats | null, staleMs: number): boolean =>
  stats !== null && Date.now() - stats.mtimeMs > staleMs;

/** Keeps long-held locks fresh and notices one taken over while held. */
function refreshHeld(): void {
  if (held.size === 0) {
    clearInterval(ticker);
    ticker = undefined;
    return;
  }
  const now = Date.now();
  for (const lock of held) {
    if (now - lock.refreshedAt < lock.staleMs / 4) continue;
    if (!stillOurs(lock)) {
      held.delete(lock);
      lock.onCompromised(new Error(`${lock.path}: the lock was taken over or removed while held`));
      continue;
    }
    try {
      const at = new Date(now);
      utimesSync(lock.path, at, at);
      lock.refreshedAt = now;
      lock.mtimeMs = now;
    } catch (err) {
      lock.onCompromised(err as Error);
    }
  }
}

/**
 * The same directory, untouched by anyone else. The inode alone is not
 * enough: a directory removed and made again at once often gets the same one.
 */
function stillOurs(lock: HeldLock): boolean {
  const now = statOrNull(lock.path);
  return (
    now !== null &&
    now.ino === lock.ino &&
    now.birthtimeMs === lock.bornMs &&
    Math.abs(now.mtimeMs - lock.mtimeMs) < 1
  );
}

function statOrNull(path: string): Stats | null {
  try {
    return statSync(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

function removeDir(path: string): void {
  try {
    rmdirSync(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
}
