import type { CronJob } from '../../store/types.js';
import type { CronJobListing } from './types.js';

const PROMPT_PREVIEW = 80;

/** One line per job: what a person would want to see in `teamd cron ls`. */
export function formatCronListing({ job, nextFireAt }: CronJobListing): string {
  const zone = job.timezone ? ` ${job.timezone}` : '';
  const state = [
    job.done ? 'done' : nextFireAt ? `next ${nextFireAt}` : 'not scheduled',
    job.recurring ? null : 'once',
    job.durable ? null : 'in memory',
    job.pendingDelivery ? `undelivered fire of ${job.pendingDelivery}` : null,
    job.expiresAt ? `expires ${job.expiresAt}` : null,
  ].filter((part) => part !== null);
  return `${job.id}  "${job.cron}"${zone} → ${job.to}  [${state.join(', ')}]  ${preview(job.prompt)}`;
}

/** What `cron_create` tells the model it made. */
export function describeCreated(job: CronJob): string {
  const kind = job.recurring ? 'recurring' : 'one-shot';
  const where = job.durable ? `.cron/${job.id}.json` : 'memory only (gone when the daemon stops)';
  return `Scheduled ${kind} cron job ${job.id}: "${job.cron}"${job.timezone ? ` (${job.timezone})` : ''} → ${job.to}; stored in ${where}.`;
}

function preview(prompt: string): string {
  const line = prompt.replace(/\s+/g, ' ').trim();
  return line.length > PROMPT_PREVIEW ? `${line.slice(0, PROMPT_PREVIEW - 1)}…` : line;
}
