import type { CronJob, FileProblem } from '../store/types.js';
import { checkSchedule } from './next-fire.js';

/** Targets every team has: the lead itself, and the first idle teammate. */
export const BUILT_IN_TARGETS: readonly string[] = ['lead', 'any'];

/**
 * Null when `job` can be scheduled; otherwise the field and why. The schema has
 * already checked the shape; this checks what only the scheduler knows: the
 * expression, the time zone, and whether `to` names a member of the team.
 */
export function checkJob(
  job: CronJob,
  validTargets?: () => readonly string[],
): Omit<FileProblem, 'file'> | null {
  return checkSchedule(job) ?? checkTarget(job.to, validTargets);
}

/** Null when `to` is `lead`, `any`, or one of `validTargets` (anything, when there is no list). */
export function checkTarget(
  to: string,
  validTargets?: () => readonly string[],
): Omit<FileProblem, 'file'> | null {
  if (!validTargets || BUILT_IN_TARGETS.includes(to)) return null;
  const known = validTargets();
  if (known.includes(to)) return null;
  const names = [...BUILT_IN_TARGETS, ...known].join(', ');
  return { field: 'to', message: `unknown target ${JSON.stringify(to)} (expected one of: ${names})` };
}

/** A job fires no more: marked done, or a one-shot that has fired its slot. */
export function isFinished(job: CronJob): boolean {
  return job.done || (!job.recurring && job.lastFired !== null);
}

/** True once `expiresAt` has come: the job fires no slot at or after it. */
export function isExpired(job: CronJob, now: number): boolean {
  return job.expiresAt !== null && Date.parse(job.expiresAt) <= now;
}
