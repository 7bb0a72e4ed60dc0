/**
 * The agent-facing cron tools (`cron_create`, `cron_list`, `cron_delete`) reach
 * the team's jobs through `ctx.services.cron`, a `CronToolService` the daemon
 * injects (src/cron/tool-service.ts builds one over the store and the scheduler).
 * Who may call them is the permission gate's decision, like any other tool.
 */
import type { NewCronJob } from '../../store/cron/index.js';
import type { CronJob, FileProblem, Outcome } from '../../store/types.js';
import type { ToolContext } from '../types.js';

/** A job as listed: its content and the next time it fires (null: done, expired, or not scheduled). */
export interface CronJobListing {
  job: CronJob;
  nextFireAt: string | null;
}

export interface CronToolService {
  /**
   * Adds a job and schedules it at once. Durable jobs (the default) are the file
   * `.cron/<id>.json` and survive restarts; `durable: false` lives in the daemon's
   * memory. Refused, with the field and why, for a bad expression, time zone or target.
   */
  create(input: NewCronJob): Promise<Outcome<CronJob>>;
  /** Every job with its next fire, and the job files that could not be read. */
  list(): Promise<{ jobs: CronJobListing[]; problems: FileProblem[] }>;
  /** Deletes a job (its file, or its in-memory entry); it fires no more. */
  remove(id: string): Promise<Outcome<CronJob>>;
}

/** The service, or a programmer error: the cron tools run only inside a daemon that provides it. */
export function cronService(ctx: ToolContext): CronToolService {
  const service = ctx.services.cron as CronToolService | undefined;
  if (!service) throw new Error('cron tools need ctx.services.cron (they run only inside a team daemon)');
  return service;
}
