/**
 * Review before merge, as changes of the task file. A finished task that
 * needs a review stays `in_progress` with `metadata.merge.state: "review"`
 * (so `cat .tasks/<id>.json` says it waits for one); `metadata.merge.review`
 * says who reviews (`human` or `agent`). Accepting sets the state back to
 * `queued` with `accepted` naming the commit, and the merge queue takes it;
 * rejecting returns the task to its owner with the reason, one attempt
 * counted. The lead and the CLI (`teamd accept`, `teamd reject`) both use these.
 */
import { z } from 'zod';
import type { TeamConfig } from '../config/schema.js';
import type { Outcome, Task } from '../store/types.js';
import type { MergeHandoff } from '../teammate/task-finish.js';

export const ReviewModeSchema = z.enum(['auto', 'human', 'agent']);
export type ReviewMode = z.infer<typeof ReviewModeSchema>;

/** What `metadata.merge.review` holds while a task waits in review. */
export interface ReviewRecord {
  mode: 'human' | 'agent';
  requestedAt: string;
  /** Why the reviewer agent handed the task over to a person. */
  handedOver?: string;
}

/** The merge hand-off as the lead extends it: review, acceptance, rejections. */
export type ReviewedHandoff = Omit<MergeHandoff, 'state'> & {
  state: string;
  review?: ReviewRecord;
  accepted?: { commit: string | null; by: string; at: string };
};

const handoff = (task: Task): ReviewedHandoff | undefined =>
  task.metadata.merge as ReviewedHandoff | undefined;

/** Rejections by the reviewer agent so far (kept outside the hand-off, which each finish replaces). */
export const agentRejections = (task: Task): number => {
  const n = task.metadata.reviewRejections;
  return typeof n === 'number' && Number.isInteger(n) && n >= 0 ? n : 0;
};

/** The task's own `metadata.review` when valid, else the team's `review`. */
export function reviewModeOf(task: Task, config: Pick<TeamConfig, 'review'>): ReviewMode {
  const own = ReviewModeSchema.safeParse(task.metadata.review);
  return own.success ? own.data : config.review;
}

export const inReview = (task: Task | undefined): boolean =>
  task?.status === 'in_progress' && handoff(task)?.state === 'review';

/** A finished task (queued for merge) whose current commit nobody accepted yet, under a mode that reviews. */
export function needsReview(task: Task, config: Pick<TeamConfig, 'review'>): boolean {
  const h = handoff(task);
  if (task.status !== 'in_progress' || h?.state !== 'queued') return false;
  if (reviewModeOf(task, config) === 'auto') return false;
  return !h.accepted || h.accepted.commit !== h.commit;
}

/** Into review: an agent review unless its rounds are used up, then a person's. */
export function toReview(
  task: Task,
  config: Pick<TeamConfig, 'review' | 'reviewRounds'>,
  now: Date,
): Outcome<Task> {
  if (!needsReview(task, config)) return { ok: false, error: `task ${task.id} does not wait for a review` };
  const wanted = reviewModeOf(task, config) === 'agent' ? 'agent' : 'human';
  const spent = wanted === 'agent' && agentRejections(task) >= config.reviewRounds;
  const review: ReviewRecord = spent
    ? {
        mode: 'human',
        requestedAt: now.toISOString(),
        handedOver: `the reviewer rejected it ${agentRejections(task)} times`,
      }
    : { mode: wanted, requestedAt: now.toISOString() };
  return {
    ok: true,
    value: { ...task, metadata: { ...task.metadata, merge: { ...handoff(task), state: 'review', review } } },
  };
}

/** The reviewer agent could not decide: a person reviews it. */
export function handOver(task: Task, why: string): Outcome<Task> {
  if (!inReview(task)) return { ok: false, error: `task ${task.id} is not in review` };
  const h = handoff(task)!;
  const review = { ...h.review!, mode: 'human' as const, handedOver: why };
  return { ok: true, value: { ...task, metadata: { ...task.metadata, merge: { ...h, review } } } };
}

const note = (by: string, text: string, now: Date) => ({ ts: now.toISOString(), by, text });

/** Accepted: to the merge queue, with the accepted commit recorded (a later finish is reviewed again). */
export function acceptReview(task: Task, by: string, now: Date): Outcome<Task> {
  if (!inReview(task))
    return { ok: false, error: `task ${task.id} is not waiting for a review (${describe(task)})` };
  const h = handoff(task)!;
  const merge = { ...h, state: 'queued', accepted: { commit: h.commit, by, at: now.toISOString() } };
  return {
    ok: true,
    value: {
      ...task,
      metadata: { ...task.metadata, merge },
      notes: [...task.notes, note(by, 'Review: accepted', now)],
    },
  };
}

/**
 * Rejected: back to its owner (pending, assigned) with the reason, one
 * attempt counted; at `maxAttempts` the task fails instead.
 */
export function rejectReview(
  task: Task,
  by: string,
  reason: string,
  maxAttempts: number,
  now: Date,
): Outcome<Task> {
  if (!inReview(task))
    return { ok: false, error: `task ${task.id} is not waiting for a review (${describe(task)})` };
  const h = handoff(task)!;
  const attempts = task.attempts + 1;
  const text = `Review rejected by ${by} (attempt ${attempts} of ${maxAttempts}): ${reason}`;
  const rejections = h.review?.mode === 'agent' ? agentRejections(task) + 1 : agentRejections(task);
  const metadata = {
    ...task.metadata,
    reviewRejections: rejections,
    merge: { ...h, state: 'rejected', reason },
  };
  const base: Task = {
    ...task,
    attempts,
    lease: null,
    owner: h.agent,
    metadata,
    notes: [...task.notes, note(by, text, now)],
  };
  if (attempts < maxAttempts) return { ok: true, value: { ...base, status: 'pending' } };
  return {
    ok: true,
    value: { ...base, status: 'failed', result: { summary: text, error: 'review rejected' } },
  };
}

function describe(task: Task): string {
  const state = handoff(task)?.state;
  return state ? `${task.status}, merge ${state}` : task.status;
}
