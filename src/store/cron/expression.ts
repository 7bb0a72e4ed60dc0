import type { CronExpression } from 'cron-parser';
import type { Outcome } from '../types.js';
import { cronExpressionParser } from './parser.js';

/** What is wrong with a job's schedule, by field. */
export interface ScheduleError {
  field: 'cron' | 'timezone';
  message: string;
}

/**
 * Checks a cron expression the way the scheduler will use it. cron-parser
 * quietly accepts too few fields (`* * *`) and `@daily` style macros, so the
 * field count is checked first: 5 (minute first) or 6 (second first).
 */
export function checkCronExpression(
  expr: string,
  timezone?: string,
  currentDate?: Date,
): Outcome<CronExpression, ScheduleError> {
  const fields = expr.trim().split(/\s+/).filter(Boolean);
  if (fields.length !== 5 && fields.length !== 6) {
    const message = `"${expr}" has ${fields.length} field(s); expected 5 (min hour day month weekday) or 6 (sec min hour day month weekday)`;
    return { ok: false, error: { field: 'cron', message } };
  }
  if (timezone !== undefined && !isTimeZone(timezone)) {
    const message = `unknown time zone "${timezone}" (use an IANA name such as Europe/Paris)`;
    return { ok: false, error: { field: 'timezone', message } };
  }
  try {
    return { ok: true, value: cronExpressionParser().parse(fields.join(' '), { tz: timezone, currentDate }) };
  } catch (err) {
    return { ok: false, error: { field: 'cron', message: `"${expr}": ${(err as Error).message}` } };
  }
}

export const formatScheduleError = (e: ScheduleError): string => `${e.field}: ${e.message}`;

function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** The first fire time strictly after `after`, or null when the schedule is invalid or never fires. */
export function nextFireAt(job: { cron: string; timezone?: string | undefined }, after: Date): Date | null {
  const checked = checkCronExpression(job.cron, job.timezone, after);
  if (!checked.ok) return null;
  try {
    return checked.value.next().toDate();
  } catch {
    return null;
  }
}
