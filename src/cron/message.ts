import type { CronJob } from '../store/types.js';

/**
 * The id of the `cron` message for one fire. The same job and slot always give
 * the same id, so a fire delivered again after a crash (between `deliver` and
 * `markDelivered`) is recognised by a recipient that deduplicates by id.
 */
export function cronMessageId(jobId: string, slot: Date): string {
  return `cron-${jobId}-${slot.toISOString().replace(/[-:]/g, '')}`;
}

/** What the daemon puts in the `cron` message's `metadata`. */
export function cronMessageMetadata(job: CronJob, slot: Date): Record<string, unknown> {
  return { cronJobId: job.id, slot: slot.toISOString(), cron: job.cron, recurring: job.recurring };
}
