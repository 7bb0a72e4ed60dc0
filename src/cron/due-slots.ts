import type { CronJob } from '../store/types.js';
import { latestSlotBetween, slotsBetween } from './next-fire.js';

/** How many missed slots are walked one by one (and counted) before jumping to the latest. */
export const MISSED_COUNT_LIMIT = 1000;

/** A run of slots that will not be fired. */
export interface SlotRun {
  count: number;
  /** True when there were more than `count`. */
  countCapped: boolean;
  first: Date;
  last: Date;
}

/** What to do about the slots of one job that are due now. */
export interface DuePlan {
  /** The one slot to fire now, if any; `late` when it was missed and is caught up. */
  fire: { slot: Date; late: boolean } | null;
  /** `catchUp: "once"`: how many missed slots the fire stands for (0: none missed). */
  caughtUp: number;
  /** Slots dropped, and why. */
  skipped: (SlotRun & { reason: 'missed' | 'undelivered' }) | null;
  /** Every slot up to here has been decided: the next evaluation starts after it. */
  through: Date | null;
}

const NOTHING: DuePlan = { fire: null, caughtUp: 0, skipped: null, through: null };

/**
 * Decides the due slots of `job` in (`baseline`, `now`]. At most one slot fires:
 * the latest. It is on time when reached within `lateAfterMs`; every earlier slot
 * (and a late latest one) was missed and follows `catchUp` — `once` fires the
 * latest in their place, `skip` drops them. While an earlier fire is still
 * undelivered nothing fires on top of it.
 */
export function planDue(job: CronJob, baseline: Date, now: Date, lateAfterMs: number): DuePlan {
  const walked = slotsBetween(job, baseline, now, MISSED_COUNT_LIMIT);
  const firstSlot = walked[0];
  if (!firstSlot) return NOTHING;
  const lastWalked = walked[walked.length - 1] ?? firstSlot;
  const capped = walked.length === MISSED_COUNT_LIMIT;
  const latest = (capped && latestSlotBetween(job, lastWalked, now)) || lastWalked;
  const all: SlotRun = {
    count: walked.length + (latest === lastWalked ? 0 : 1),
    countCapped: capped,
    first: firstSlot,
    last: latest,
  };
  if (job.pendingDelivery !== null)
    return { ...NOTHING, skipped: { ...all, reason: 'undelivered' }, through: latest };
  const onTime = now.getTime() - latest.getTime() <= lateAfterMs;
  if (!onTime) return planLate(job, all);
  const earlier = walked.filter((slot) => slot !== latest);
  const fire = { slot: latest, late: false };
  if (earlier.length === 0) return { ...NOTHING, fire, through: latest };
  if (job.catchUp === 'once') return { ...NOTHING, fire, caughtUp: all.count - 1, through: latest };
  const skipped = {
    ...all,
    count: all.count - 1,
    last: earlier[earlier.length - 1] ?? firstSlot,
    reason: 'missed' as const,
  };
  return { ...NOTHING, fire, skipped, through: latest };
}

function planLate(job: CronJob, all: SlotRun): DuePlan {
  if (job.catchUp === 'once')
    return { ...NOTHING, fire: { slot: all.last, late: true }, caughtUp: all.count, through: all.last };
  return { ...NOTHING, skipped: { ...all, reason: 'missed' }, through: all.last };
}
