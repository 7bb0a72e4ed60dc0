import { statSync, type Stats } from 'node:fs';
import { stillHeld, type HeldLock } from './lock-link.js';

/**
 * A locked write's commit failed its fence: the lock was taken over while we
 * held it (we stalled past its staleness: SIGSTOP, a VM pause, swap) or the
 * file changed under it. Nothing was written; the caller lost a race.
 */
export class LockLostError extends Error {
  readonly code = 'ELOCKLOST';
  constructor(
    readonly file: string,
    why: string,
  ) {
    super(`${file}: ${why}; the change was not written (a lost race)`);
    this.name = 'LockLostError';
  }
}

/** Identity and version of a file, as far as stat tells: a rename or a rewrite changes it. */
type Version = { ino: number; size: number; mtimeMs: number; ctimeMs: number } | null;

function versionOf(file: string): Version {
  let s: Stats | undefined;
  try {
    s = statSync(file, { throwIfNoEntry: false });
  } catch {
    return null; // unreadable: the write itself will report it
  }
  return s ? { ino: s.ino, size: s.size, mtimeMs: s.mtimeMs, ctimeMs: s.ctimeMs } : null;
}

const sameVersion = (a: Version, b: Version): boolean =>
  a === b ||
  (a !== null && b !== null && a.ino === b.ino && a.size === b.size && a.mtimeMs === b.mtimeMs && a.ctimeMs === b.ctimeMs);

/**
 * One hold of a lock, handed to the function `withLock` runs: every write of
 * the locked file commits through `verify` (just before its rename), which
 * refuses when the lock is no longer ours or the file is not the version
 * that was there when the lock was taken (or that we wrote since).
 */
export class Fence {
  private version: Version;

  constructor(
    readonly file: string,
    private readonly lock: HeldLock,
    private readonly beforeCommit?: (file: string) => void,
  ) {
    this.version = versionOf(file);
  }

  /** Throws LockLostError unless a write of `target` may commit now. Synchronous: the rename must follow at once. */
  verify(target: string): void {
    this.beforeCommit?.(target);
    if (target === this.file && !sameVersion(this.version, versionOf(target)))
      throw new LockLostError(target, 'the file changed while its lock was held');
    if (!stillHeld(this.lock)) throw new LockLostError(target, 'the lock was taken over while held (its holder stalled past the lock staleness)');
  }

  /** After our own rename (or removal) of `target`: its new version is ours. */
  committed(target: string): void {
    if (target === this.file) this.version = versionOf(target);
  }
}
