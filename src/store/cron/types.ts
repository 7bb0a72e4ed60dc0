/**
 * The cron store's contracts. A job's shape is `CronJobSchema` in `../types.ts`;
 * a durable job is the file `.cron/<id>.json`, a non-durable one lives only in
 * the memory of the store that added it.
 */
import { z } from 'zod';
import { LockOptionsSchema, NowSchema, RosterSchema } from '../options.js';
import type { CronJob, Outcome } from '../types.js';
import { AgentNameSchema, CatchUpSchema, CronJobSchema, IdSchema } from '../types.js';

/**
 * What `add` accepts. `cron` has 5 fields (minute hour day-of-month month
 * day-of-week) or 6 (a seconds field first); `timezone` is an IANA zone
 * (default: the daemon's). Without `id` the store makes one (`c-<time>-<random>`).
 * `recurring: false` fires once; `catchUp` says whether a fire missed while the
 * daemon was down runs once on start (`once`) or is skipped (`skip`, default).
 */
export const NewCronJobSchema = z.strictObject({
  cron: z.string().min(1),
  prompt: CronJobSchema.shape.prompt,
  id: IdSchema.optional(),
  to: AgentNameSchema.optional(),
  recurring: z.boolean().optional(),
  durable: z.boolean().optional(),
  timezone: z.string().min(1).optional(),
  catchUp: CatchUpSchema.optional(),
  expiresAt: z.iso.datetime().nullable().optional(),
});
export type NewCronJob = z.input<typeof NewCronJobSchema>;

/** What an `update` mutator returns: the changed job, or a refusal. */
export type CronMutation = CronJob | Outcome<CronJob>;

export const CronStoreOptionsSchema = z.strictObject({
  /** When set, `to` must be one of these names or `any`. */
  roster: RosterSchema.optional(),
  lock: LockOptionsSchema.optional(),
  /** The clock for `createdAt` and expiry; tests inject one. */
  now: NowSchema.optional(),
});
export type CronStoreOptions = z.input<typeof CronStoreOptionsSchema>;
