/**
 * The options of the stores (`TaskStore`, `MailboxStore`, `MemoryMailbox`,
 * `CronStore`) as zod schemas: a program that embeds them gets an
 * `OptionsError` naming the option (`TaskStore.open options: lock.staleMs: …`)
 * rather than a store that misbehaves later. The option types are inferred
 * from these schemas (in each store's types.ts).
 */
import { z } from 'zod';
import { fn, OptionsError, parseOptions } from '../config/options.js';
import type { LockIncident } from './lock.js';

export const LockOptionsSchema = z.strictObject({
  /** A lock whose holder stopped refreshing it for this long (ms) is taken over. */
  staleMs: z.number().positive().optional(),
  /** How many times to retry a held lock (short jittered waits, about 3 ms each) before giving up. */
  retries: z.number().int().nonnegative().optional(),
  /** Called instead of throwing when a held lock was lost (e.g. the event loop stalled past `staleMs`). */
  onCompromised: fn<(incident: LockIncident) => void>('incident → void').optional(),
  /**
   * Called inside a fenced write just before its check (for tests: a holder
   * stops itself here, inside its critical section, after it read the file).
   */
  beforeCommit: fn<(file: string) => void>('file → void').optional(),
});

/** The clock for timestamps (and leases); tests inject one. */
export const NowSchema = fn<() => Date>('() → Date');

/** A roster: the agent names a store accepts as recipients. */
export const RosterSchema = z.array(z.string().min(1)).readonly();

/**
 * Checks a store's options; throws an `OptionsError`. Returns them as given,
 * not zod's copy: a roster is live (the lead adds a teammate created later
 * to the array its stores hold).
 */
export function storeOptions<T extends object>(owner: string, schema: z.ZodType, options: T): T {
  parseOptions(`${owner} options`, schema, options);
  return options ?? ({} as T); // null from plain JavaScript means none
}

/** A file store's repository: a non-empty path, or an `OptionsError` naming it. */
export function checkRepoRoot(owner: string, repoRoot: unknown): void {
  if (typeof repoRoot !== 'string' || repoRoot === '')
    throw new OptionsError(owner, [`repoRoot: expected the path of a repository (a non-empty string), got ${JSON.stringify(repoRoot) ?? typeof repoRoot}`]);
}
