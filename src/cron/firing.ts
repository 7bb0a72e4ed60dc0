import type { CronJob } from '../store/types.js';
import type { ScheduledJob } from './job-index.js';
import type { CronErrorStage, CronEvent, CronJobSource, DeliveryResult } from './types.js';

/** An event before the scheduler stamps it with the time. */
export type CronEventBody = CronEvent extends infer E ? (E extends CronEvent ? Omit<E, 'at'> : never) : never;

/** What firing needs from the scheduler. */
export interface FiringContext {
  sourceOf(entry: ScheduledJob): CronJobSource;
  deliver(job: CronJob, slot: Date): Promise<DeliveryResult>;
  emit(event: CronEventBody): void;
  /** Records the job's content after a write of ours. */
  replace(entry: ScheduledJob, job: CronJob): void;
}

/**
 * Fires `slot`: writes `lastFired` (and `pendingDelivery`) first, so a crash from
 * here on can never fire this slot again, then delivers. The same write marks a
 * one-shot job `done`.
 */
export async function fireSlot(
  ctx: FiringContext,
  entry: ScheduledJob,
  slot: Date,
  late: boolean,
): Promise<void> {
  const slotIso = slot.toISOString();
  const written = await ctx.sourceOf(entry).markFired(entry.job.id, slotIso);
  if (!written.ok) {
    entry.decidedThrough = slot.getTime(); // do not retry this slot in a loop; the next one will try again
    return ctx.emit(errorEvent(entry, 'mark_fired', written.error));
  }
  ctx.replace(entry, written.value);
  ctx.emit({ type: 'cron_fired', jobId: entry.job.id, slot: slotIso, to: entry.job.to, late });
  if (!written.value.recurring) ctx.emit({ type: 'cron_done', jobId: entry.job.id, slot: slotIso });
  await deliverPending(ctx, entry);
}

/** Delivers the job's pending fire, if it has one; on `delivered`, clears it. */
export async function deliverPending(ctx: FiringContext, entry: ScheduledJob): Promise<void> {
  const slotIso = entry.job.pendingDelivery;
  if (slotIso === null) return;
  const { id, to } = entry.job;
  let result: DeliveryResult;
  try {
    result = await ctx.deliver(entry.job, new Date(slotIso));
  } catch (err) {
    return ctx.emit(errorEvent(entry, 'deliver', (err as Error).message));
  }
  if (result === 'deferred') return ctx.emit({ type: 'cron_deferred', jobId: id, slot: slotIso, to });
  const cleared = await ctx.sourceOf(entry).markDelivered(id);
  // Delivered is delivered: if the write failed, a restart delivers again with the same message id.
  ctx.replace(entry, cleared.ok ? cleared.value : { ...entry.job, pendingDelivery: null });
  if (!cleared.ok) ctx.emit(errorEvent(entry, 'mark_delivered', cleared.error));
  const recovered = entry.recoveredSlot === slotIso;
  if (recovered) entry.recoveredSlot = null;
  ctx.emit({ type: 'cron_delivered', jobId: id, slot: slotIso, to, recovered });
}

function errorEvent(entry: ScheduledJob, stage: CronErrorStage, message: string): CronEventBody {
  return { type: 'cron_error', jobId: entry.job.id, stage, message };
}
