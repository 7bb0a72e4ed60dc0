import { setTimeout as delay } from 'node:timers/promises';
import { Fence, LockLostError } from './fence.js';
import { stuckHint } from './lock-holder.js';
import { lockEntryFor, release, tryAcquire, type HeldLock } from './lock-link.js';
import type { Outcome } from './types.js';
import type { z } from 'zod';
import type { LockOptionsSchema } from './options.js';

export { Fence, LockLostError } from './fence.js';

/** How a lock is taken: see `LockOptionsSchema` (store/options.ts), which this type is inferred from. */
export type LockOptions = z.input<typeof LockOptionsSchema>;

/** A lock that was lost while held, or failed to release: recorded, never thrown. */
export interface LockIncident {
  file: string;
  at: string;
  message: string;
}

/** The lock stayed held by someone else through every retry. */
export class LockBusyError extends Error {
  readonly code = 'ELOCKED';
  constructor(
    readonly file: string,
    hint = '',
  ) {
    super(`${file}: busy (locked by another process)${hint}`);
    this.name = 'LockBusyError';
  }
}

// About 20 s of retries: longer than `staleMs`, so a lock left by a dead process is taken over before giving up.
const DEFAULTS = { staleMs: 10_000, retries: 6000 } as const;
const MAX_INCIDENTS = 100;
const incidents: LockIncident[] = [];
const inProcessTails = new Map<string, Promise<void>>();
const queueDepth = new Map<string, number>();

/** Lost or unreleasable locks seen by this process, newest last (at most 100). */
export const lockIncidents = (): readonly LockIncident[] => incidents;

/** The lock of `dir/x.json` is the entry `dir/.locks/x.json` (a hidden folder, so listings stay clean). */
export const lockPathFor = lockEntryFor;

/**
 * Runs `fn` holding the cross-process lock of `file` (which need not exist).
 * Calls in one process queue up in order before touching the lock directory,
 * so only processes compete for it. Not reentrant: `fn` must not lock `file` again.
 * Rejects with LockBusyError when the lock stays held through every retry.
 * `fn` gets the hold's Fence: writes that pass it (`writeFileAtomic`'s
 * `fence`) refuse to commit once the lock is lost (LockLostError).
 */
export async function withLock<T>(file: string, fn: (fence: Fence) => Promise<T>, opts: LockOptions = {}): Promise<T> {
  return queued(file, () => withProcessLock(file, fn, opts));
}

/**
 * Runs `fn` in this process's queue for `file` (after every `withLock` or
 * `queued` call made before it, before any made after it) without taking the
 * cross-process lock: a read here never sees a change of this process half
 * done, nor ends before an earlier change of this process.
 */
export async function queued<T>(file: string, fn: () => Promise<T>): Promise<T> {
  queueDepth.set(file, (queueDepth.get(file) ?? 0) + 1);
  const previous = inProcessTails.get(file) ?? Promise.resolve();
  let done!: () => void;
  const tail = previous.then(() => new Promise<void>((resolve) => (done = resolve)));
  inProcessTails.set(file, tail);
  await previous;
  try {
    return await fn();
  } finally {
    done();
    if (inProcessTails.get(file) === tail) inProcessTails.delete(file);
    const depth = (queueDepth.get(file) ?? 1) - 1;
    if (depth > 0) queueDepth.set(file, depth);
    else queueDepth.delete(file);
  }
}

/** How many `withLock`/`queued` calls of this process are running or waiting for `file`. */
export const queuedFor = (file: string): number => queueDepth.get(file) ?? 0;

async function withProcessLock<T>(file: string, fn: (fence: Fence) => Promise<T>, opts: LockOptions): Promise<T> {
  const report = opts.onCompromised ?? recordIncident;
  const lock = await acquire(file, opts, (err) => report(incidentOf(file, err)));
  try {
    return await fn(new Fence(file, lock, opts.beforeCommit));
  } finally {
    try {
      release(lock);
    } catch (err) {
      report(incidentOf(file, err as Error));
    }
  }
}

async function acquire(file: string, opts: LockOptions, onCompromised: (err: Error) => void): Promise<HeldLock> {
  const retries = opts.retries ?? DEFAULTS.retries;
  const path = lockPathFor(file);
  for (let attempt = 0; ; attempt++) {
    const tried = tryAcquire(path, opts.staleMs ?? DEFAULTS.staleMs, onCompromised);
    if ('taken' in tried) return tried.taken;
    if (attempt >= retries) throw new LockBusyError(file, stuckHint(path));
    await delay(retryDelayMs(attempt));
  }
}

/**
 * Short waits with jitter that stop growing early: with long exponential waits
 * a fresh contender always beats one that has waited, which starves it.
 */
const retryDelayMs = (attempt: number): number => 1 + Math.random() * Math.min(5, 1 + attempt);

function incidentOf(file: string, err: Error): LockIncident {
  return { file, at: new Date().toISOString(), message: err.message };
}

function recordIncident(incident: LockIncident): void {
  incidents.push(incident);
  if (incidents.length > MAX_INCIDENTS) incidents.shift();
}

/** Why `tryWithLock` did not run (or finish) its function. */
export interface LockFailure {
  /** `lost`: a fenced write found the lock taken over (or the file changed) and wrote nothing. */
  reason: 'busy' | 'io' | 'lost';
  message: string;
}

/**
 * `withLock`, with a lock held through every retry, a lock lost before a
 * fenced write, or a failed file operation (ENOSPC, EACCES, …) returned as
 * data. Anything else is a bug and is thrown.
 */
export async function tryWithLock<T>(
  file: string,
  fn: (fence: Fence) => Promise<T>,
  opts?: LockOptions,
): Promise<Outcome<T, LockFailure>> {
  try {
    return { ok: true, value: await withLock(file, fn, opts) };
  } catch (err) {
    if (err instanceof LockBusyError) return { ok: false, error: { reason: 'busy', message: err.message } };
    if (err instanceof LockLostError) return { ok: false, error: { reason: 'lost', message: err.message } };
    const code = (err as NodeJS.ErrnoException).code;
    if (typeof code === 'string') return { ok: false, error: { reason: 'io', message: `${file}: ${code}` } };
    throw err;
  }
}
