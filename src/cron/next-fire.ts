import type { CronExpression } from 'cron-parser';
import { checkCronExpression } from '../store/cron/index.js';
import { cronExpressionParser } from '../store/cron/parser.js';
import type { CronJob, FileProblem, Outcome } from '../store/types.js';

/** The part of a job that decides when it fires. */
export type Schedule = Pick<CronJob, 'cron' | 'timezone'>;

/** The machine's time zone: what a job without `timezone` runs in. */
export function machineTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}

/**
 * Null when `schedule` can fire: the store's rules (5 or 6 fields, a known IANA
 * zone, a valid expression), and at least one fire time can be computed.
 */
export function checkSchedule(schedule: Schedule): Omit<FileProblem, 'file'> | null {
  const checked = checkCronExpression(schedule.cron, schedule.timezone);
  if (!checked.ok) return checked.error;
  return nextFireAt(schedule, new Date())
    ? null
    : { field: 'cron', message: `"${schedule.cron}" never fires` };
}

/** The first fire time strictly after `after`; null when there is none (or the expression is unusable). */
export function nextFireAt(schedule: Schedule, after: Date): Date | null {
  const expression = parse(schedule, after);
  return expression.ok ? step(expression.value) : null;
}

/**
 * The fire times in (`from`, `to`], oldest first, at most `limit` of them. One
 * iterator walks forward from `from`, so an hour repeated by a DST fall-back is
 * visited once for a daily job, as cron-parser decides from that anchor.
 */
export function slotsBetween(schedule: Schedule, from: Date, to: Date, limit = 1000): Date[] {
  const expression = parse(schedule, from);
  if (!expression.ok) return [];
  const slots: Date[] = [];
  while (slots.length < limit) {
    const slot = step(expression.value);
    if (!slot || slot.getTime() > to.getTime()) break;
    slots.push(slot);
  }
  return slots;
}

/**
 * The latest fire time in (`after`, `at`], found by looking back twice as far
 * each round; used only when more slots were missed than `slotsBetween` walks.
 */
export function latestSlotBetween(schedule: Schedule, after: Date, at: Date): Date | null {
  for (let back = 1000; ; back *= 2) {
    const from = new Date(Math.max(at.getTime() - back, after.getTime()));
    const slots = slotsBetween(schedule, from, at, 10_000);
    const last = slots[slots.length - 1];
    if (last) return last;
    if (from.getTime() === after.getTime()) return null;
  }
}

function parse(schedule: Schedule, currentDate: Date): Outcome<CronExpression> {
  try {
    return {
      ok: true,
      value: cronExpressionParser().parse(schedule.cron, { currentDate, tz: zoneOf(schedule) }),
    };
  } catch (err) {
    return { ok: false, error: (err as Error).message };
  }
}

function step(expression: CronExpression): Date | null {
  try {
    return expression.next().toDate();
  } catch {
    // cron-parser throws when it finds no further time (e.g. its loop limit in an odd zone).
    return null;
  }
}

function zoneOf(schedule: Schedule): string {
  return schedule.timezone ?? machineTimeZone();
}
