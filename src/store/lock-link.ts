import { randomBytes } from 'node:crypto';
import {
  closeSync,
  fstatSync,
  linkSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  rmdirSync,
  unlinkSync,
  utimesSync,
  writeSync,
  type Stats,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { threadId } from 'node:worker_threads';
import { holderOf, isFuture } from './lock-holder.js';
import { isGone, ownIdentity } from './process-identity.js';

/**
 * The cross-process half of a lock. The lock of `dir/x.json` is the entry
 * `dir/.locks/x.json`: a hard link to its holder's owner file
 * (`dir/.locks/.owner-<pid>-<thread>-<random>`), made with link(2), which
 * fails when the entry exists, atomically on every local and network file
 * system. Released by unlinking it.
 *
 * Why links and not mkdir: a link allocates no inode. Making and removing a
 * directory per lock is two inode operations, and ext4 without a journal
 * scans past every inode freed in the last 30 s on each allocation, so inode
 * churn grows costlier the busier the team is.
 *
 * Liveness is the owner file's mtime, which its holder refreshes while it
 * holds locks: a lock whose mtime is older than `staleMs` was left by a dead
 * process and is taken over. The owner file holds its process's identity
 * (pid, start time, host): a lock whose mtime lies in the future (a clock
 * stepped back, a copied file) is taken over at once when that process is
 * gone. Every operation is synchronous: each is one small syscall, cheaper
 * than a round trip through libuv's thread pool.
 */
export interface HeldLock {
  readonly path: string;
  /** The owner file's inode: a release removes the entry only while it is still ours. */
  readonly ino: number;
  /** The owner file: while it exists with `ino`, an entry with that inode is ours (inode numbers are reused). */
  readonly ownerPath: string;
  readonly staleMs: number;
  readonly onCompromised: (err: Error) => void;
}

/** What one attempt to take the lock found. */
export type AttemptResult = { taken: HeldLock } | { busy: true };

interface Owner {
  readonly path: string;
  readonly ino: number;
  refreshedAt: number;
}

export const LOCKS_FOLDER = '.locks';
const OWNER_PREFIX = '.owner-';
const REFRESH_TICK_MS = 1_000;
const owners = new Map<string, Owner>();
const held = new Set<HeldLock>();
let ticker: NodeJS.Timeout | undefined;

/** `dir/.locks/<name>`: the lock entry of `dir/<name>`. */
export const lockEntryFor = (file: string): string => join(dirname(file), LOCKS_FOLDER, basename(file));

/** One attempt: links the lock entry, or takes over a stale one, or reports it busy. Throws on I/O errors. */
export function tryAcquire(path: string, staleMs: number, onCompromised: (err: Error) => void): AttemptResult {
  const fresh = freshOwner(dirname(path), staleMs);
  const owner = linkOwner(fresh, path) ?? (takeOverIfStale(path, staleMs, fresh) ? linkOwner(fresh, path) : null);
  if (owner === null) return { busy: true };
  const lock: HeldLock = { path, ino: owner.ino, ownerPath: owner.path, staleMs, onCompromised };
  held.add(lock);
  ticker ??= setInterval(refreshHeld, REFRESH_TICK_MS).unref();
  return { taken: lock };
}

/** Removes the lock entry if it is still ours; a lock taken over meanwhile is reported, never removed. */
export function release(lock: HeldLock): void {
  if (!held.delete(lock)) return; // already reported lost by the refresh
  if (statOrNull(lock.path)?.ino !== lock.ino) {
    lock.onCompromised(new Error(`${lock.path}: the lock was taken over or removed while held`));
    return;
  }
  unlinkSync(lock.path);
}

/**
 * Whether `lock` is still ours, asked just before a write under it commits:
 * not reported lost, its entry still links our owner file, and that file is
 * still ours (so the inode cannot be a reused number).
 */
export function stillHeld(lock: HeldLock): boolean {
  return held.has(lock) && statOrNull(lock.path)?.ino === lock.ino && statOrNull(lock.ownerPath)?.ino === lock.ino;
}

/** This thread's owner file in `locksDir`, its mtime fresh enough that a lock linked now is not stale. */
function freshOwner(locksDir: string, staleMs: number): Owner {
  const known = owners.get(locksDir);
  const now = Date.now();
  if (known && now - known.refreshedAt < staleMs / 4) return known;
  if (known && touch(known.path, now)) {
    known.refreshedAt = now;
    return known;
  }
  return createOwner(locksDir);
}

function createOwner(locksDir: string): Owner {
  const path = join(locksDir, `${OWNER_PREFIX}${process.pid}-${threadId}-${randomBytes(4).toString('hex')}`);
  let fd: number;
  try {
    fd = openSync(path, 'wx');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    mkdirSync(locksDir, { recursive: true });
    fd = openSync(path, 'wx');
  }
  try {
    writeSync(fd, `${JSON.stringify(ownIdentity())}\n`);
    const owner: Owner = { path, ino: fstatSync(fd).ino, refreshedAt: Date.now() };
    if (owners.size === 0) process.once('exit', removeOwners);
    sweepDeadOwners(locksDir);
    owners.set(locksDir, owner);
    return owner;
  } finally {
    closeSync(fd);
  }
}

/** The owner linked (a new one when ours had been swept), or null when the entry exists. */
function linkOwner(owner: Owner, path: string): Owner | null {
  try {
    linkSync(owner.path, path);
    return owner;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return null;
    if (code !== 'ENOENT') throw err;
    // Our owner file was swept while we held no lock (its mtime had gone stale): make a new one.
    owners.delete(dirname(path));
    return linkOwner(createOwner(dirname(path)), path);
  }
}

/**
 * Removes `path` when its holder stopped refreshing it `staleMs` ago. Two
 * contenders that both saw it stale must not both remove it (the second would
 * remove the lock the first just took), so the removal runs under a second,
 * short-lived entry and re-checks the staleness there.
 * True when the lock is gone (removed, or released meanwhile).
 */
function takeOverIfStale(path: string, staleMs: number, owner: Owner): boolean {
  const seen = statOrNull(path);
  if (seen === null) return true;
  if (!isAbandoned(path, seen, staleMs)) return false;
  const guard = `${path}.takeover`;
  if (linkOwner(owner, guard) === null) {
    // A contender died during its takeover: its guard is stale too.
    const guarded = statOrNull(guard);
    if (guarded && isAbandoned(guard, guarded, staleMs)) removeEntry(guard);
    return false;
  }
  try {
    const now = statOrNull(path);
    if (now && !isAbandoned(path, now, staleMs)) return false;
    removeEntry(path);
    return true;
  } finally {
    removeEntry(guard);
  }
}

const isStale = (stats: Stats | null, staleMs: number): boolean =>
  stats !== null && Date.now() - stats.mtimeMs > staleMs;

/**
 * Stale, or refreshed "in the future" by a process that is gone: such an
 * mtime would keep the lock fresh until the clock catches up (maybe for
 * hours), so its holder is asked instead. A live holder keeps it (reported
 * by `teamd validate` and `teamd status` as a stuck lock).
 */
function isAbandoned(path: string, stats: Stats, staleMs: number): boolean {
  if (isStale(stats, staleMs)) return true;
  if (!isFuture(stats)) return false;
  const holder = holderOf(path);
  return holder !== null && isGone(holder);
}

/** Keeps long-held locks fresh and notices one taken over while held. */
function refreshHeld(): void {
  if (held.size === 0) {
    clearInterval(ticker);
    ticker = undefined;
    return;
  }
  const now = Date.now();
  for (const lock of held) {
    const owner = owners.get(dirname(lock.path));
    if (owner?.ino === lock.ino && now - owner.refreshedAt < lock.staleMs / 4) continue;
    if (statOrNull(lock.path)?.ino !== lock.ino) {
      held.delete(lock);
      lock.onCompromised(new Error(`${lock.path}: the lock was taken over or removed while held`));
    } else if (!touch(lock.path, now)) {
      lock.onCompromised(new Error(`${lock.path}: could not refresh the lock`));
    } else if (owner?.ino === lock.ino) owner.refreshedAt = now;
  }
}

/**
 * Owner files of processes that died (stale, and no lock links to them: a
 * dead holder's locks are taken over one by one). A live owner swept while
 * idle makes a new file at its next lock.
 */
function sweepDeadOwners(locksDir: string): void {
  for (const name of readdirSync(locksDir)) {
    if (!name.startsWith(OWNER_PREFIX)) continue;
    const stats = statOrNull(join(locksDir, name));
    if (stats && stats.nlink === 1 && isStale(stats, 60_000)) removeEntry(join(locksDir, name));
  }
}

/** At exit: this thread's owner files, and their `.locks` folders when nothing else is in them. */
function removeOwners(): void {
  for (const [locksDir, owner] of owners) {
    try {
      unlinkSync(owner.path);
      rmdirSync(locksDir);
    } catch {
      // held by someone else, or already gone: the next sweep or takeover handles it
    }
  }
  owners.clear();
}

function touch(path: string, now: number): boolean {
  try {
    const at = new Date(now);
    utimesSync(path, at, at);
    return true;
  } catch {
    return false;
  }
}

function statOrNull(path: string): Stats | null {
  try {
    return lstatSync(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

/** Unlinks an entry (or removes an empty directory: a lock made by hand with mkdir). */
function removeEntry(path: string): void {
  try {
    unlinkSync(path);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return;
    if (code !== 'EISDIR' && code !== 'EPERM') throw err;
    try {
      rmdirSync(path);
    } catch (inner) {
      if ((inner as NodeJS.ErrnoException).code !== 'ENOENT') throw inner;
    }
  }
}
