/**
 * The page's buttons: the same writes as `teamd approve` / `teamd reject` /
 * `teamd accept` (a request file answered, a task file changed under its
 * lock, the events logged), through the same functions. Bodies are checked
 * with zod; a wrong one is a 400 naming the field.
 */
import { z } from 'zod';
import type { TeamConfig } from '../config/schema.js';
import { answerApprovalOutcome } from '../dashboard/actions.js';
import { acceptTaskReview, isInReview, rejectTaskReview } from '../lead/review-answers.js';
import { IdSchema } from '../store/types.js';
import type { ActionResult } from './wire.js';

const Reason = z.string().max(10_000).optional();
export const AnswerBodySchema = z.strictObject({ id: IdSchema, reason: Reason });
export const ReviewBodySchema = z.strictObject({ task: IdSchema, reason: Reason });

export type Action = 'approve' | 'reject' | 'accept' | 'review-reject';
export const ACTIONS: readonly Action[] = ['approve', 'reject', 'accept', 'review-reject'];

async function approval(repoRoot: string, config: TeamConfig, body: unknown, approve: boolean): Promise<ActionResult> {
  const b = AnswerBodySchema.parse(body);
  return answerApprovalOutcome(repoRoot, config, b.id, approve, b.reason?.trim() || undefined);
}

async function review(repoRoot: string, config: TeamConfig, body: unknown, accept: boolean): Promise<ActionResult> {
  const b = ReviewBodySchema.parse(body);
  if (!(await isInReview(repoRoot, b.task))) return { ok: false, error: `task ${b.task} is not waiting for a review` };
  const done = accept
    ? await acceptTaskReview(repoRoot, b.task)
    : await rejectTaskReview(repoRoot, b.task, b.reason ?? '', config.maxAttempts);
  if (!done.ok) return { ok: false, error: done.error };
  if (accept) return { ok: true, message: `accepted ${b.task}: it goes to the merge queue` };
  return { ok: true, message: done.value.status === 'failed' ? `rejected ${b.task}: it failed` : `rejected ${b.task}: back to ${done.value.owner}` };
}

/** Runs `action` with a parsed JSON body; throws a ZodError for a bad body (the route makes it a 400). */
export function runAction(repoRoot: string, config: TeamConfig, action: Action, body: unknown): Promise<ActionResult> {
  if (action === 'approve' || action === 'reject') return approval(repoRoot, config, body, action === 'approve');
  return review(repoRoot, config, body, action === 'accept');
}
