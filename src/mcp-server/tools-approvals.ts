/**
 * What waits for a person: permission and plan requests, and finished tasks
 * held for review. One `answer` answers either, as `teamd approve` /
 * `teamd reject` / `teamd accept` do. Only without `--as`: an agent never
 * answers its own asks.
 */
import { z } from 'zod';
import { answerApproval } from '../cli/approvals.js';
import { acceptTask, rejectTask } from '../cli/review.js';
import { inReview, type ReviewedHandoff } from '../lead/review-state.js';
import type { Task } from '../store/types.js';
import { Id } from './fields.js';
import { listRequests } from '../teammate/requests.js';
import { openTasks } from './stores.js';
import { defineMcpTool, ok, refuse, selfOf, type McpScope, type ToolReply } from './types.js';

const reviewOf = (t: Task) => {
  const h = t.metadata.merge as ReviewedHandoff;
  return { id: t.id, subject: t.subject, by: h.agent, branch: h.branch, summary: h.summary, reviewer: h.review?.mode ?? 'human' };
};

export const approvals = defineMcpTool({
  name: 'approvals',
  description: 'What waits for an answer: permission and plan requests, and tasks held for review.',
  input: z.strictObject({}),
  scope: 'person',
  readOnly: true,
  run: async (_input, scope) => {
    const requests = listRequests(scope.repoRoot, 'pending').map((r) => ({ id: r.id, agent: r.agent, kind: r.kind, task: r.task, summary: r.summary, expiresAt: r.expiresAt }));
    const reviews = (await openTasks(scope)).list({ status: 'in_progress' }).filter(inReview).map(reviewOf);
    return ok({ requests, reviews });
  },
});

async function answerReview(scope: McpScope, id: string, approve: boolean, reason: string): Promise<ToolReply | null> {
  if (!inReview((await openTasks(scope)).get(id))) return null;
  if (!approve && !reason.trim()) return refuse('reason: say what must change (it goes back to the teammate)');
  const done = approve ? await acceptTask(scope.repoRoot, id, selfOf(scope)) : await rejectTask(scope.repoRoot, id, selfOf(scope), reason);
  if (done === null) return refuse(`id: task "${id}" is no longer in review`);
  return done.ok ? ok({ id, review: approve ? 'accepted' : 'rejected', status: done.value.status, owner: done.value.owner }) : refuse(done.error);
}

export const answer = defineMcpTool({
  name: 'answer',
  description: 'Approve or reject a request, or accept/reject a task in review (a review rejection needs a reason).',
  input: z.strictObject({
    id: Id,
    approve: z.boolean(),
    reason: z.string().max(10_000).optional(),
  }),
  scope: 'person',
  run: async ({ id, approve, reason }, scope) => {
    const review = await answerReview(scope, id, approve, reason ?? '');
    if (review) return review;
    const r = await answerApproval(scope.repoRoot, id, { approve, by: selfOf(scope), reason });
    return r.ok ? ok({ id, status: r.request.status, agent: r.request.agent }) : refuse(`id: ${r.error}`);
  },
});

export const APPROVAL_TOOLS = [approvals, answer];
