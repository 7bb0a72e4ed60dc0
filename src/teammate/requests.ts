/**
 * Requests that wait for an answer — a teammate's permission ask, its plan
 * approval — are files in `.team/state/requests/<request_id>.json`, so a
 * person (`teamd approvals`, `teamd approve`, `teamd reject`), the lead agent
 * and a restarted daemon all see the same queue. The answer travels back as a
 * message to the asking teammate; the file records it.
 */
import { existsSync, readdirSync } from 'node:fs';
import { readStateSync, stateOr } from '../store/state-file.js';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { writeFileAtomic } from '../store/atomic.js';
import { ID_PATTERN } from '../store/types.js';

export const RequestSchema = z.object({
  id: z.string().regex(ID_PATTERN),
  kind: z.enum(['permission', 'plan']),
  agent: z.string(),
  task: z.string().nullable(),
  /** Tool name and input for permission asks; the plan text for plans. */
  tool: z.string().optional(),
  input: z.unknown().optional(),
  summary: z.string(),
  status: z.enum(['pending', 'approved', 'rejected', 'expired']),
  createdAt: z.iso.datetime(),
  expiresAt: z.iso.datetime().nullable(),
  answer: z.object({ by: z.string(), reason: z.string(), at: z.iso.datetime() }).nullable(),
});
export type PendingRequest = z.infer<typeof RequestSchema>;

export const requestsDir = (repoRoot: string): string => join(repoRoot, '.team', 'state', 'requests');

export const newRequestId = (kind: 'permission' | 'plan'): string =>
  `${kind === 'plan' ? 'plan' : 'perm'}-${Date.now().toString(36)}-${randomBytes(3).toString('hex')}`;

export async function saveRequest(repoRoot: string, req: PendingRequest): Promise<void> {
  await writeFileAtomic(join(requestsDir(repoRoot), `${req.id}.json`), JSON.stringify(req, null, 2));
}

export function loadRequest(repoRoot: string, id: string): PendingRequest | null {
  if (!ID_PATTERN.test(id) || id.includes('..')) return null;
  const file = join(requestsDir(repoRoot), `${id}.json`);
  // A FIFO, a device link, a huge or deep file put here is refused unread (recorded in stateProblems).
  return stateOr(readStateSync(file, RequestSchema), null);
}

export function listRequests(repoRoot: string, status?: PendingRequest['status']): PendingRequest[] {
  const dir = requestsDir(repoRoot);
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json') && !f.startsWith('.'))
    .map((f) => loadRequest(repoRoot, f.slice(0, -5)))
    .filter((r): r is PendingRequest => r !== null && (!status || r.status === status))
    .sort((a, b) => a.createdAt.localeCompare(b.createdAt));
}

/** The part of MailboxStore answering needs. */
interface Sender {
  send(m: {
    from: string;
    to: string;
    type: 'permission_response' | 'plan_approval_response';
    content: string;
    metadata: Record<string, unknown>;
  }): Promise<{ ok: boolean; error?: unknown }>;
}

export type Answer = { ok: true; request: PendingRequest } | { ok: false; error: string };

/**
 * Approves or rejects a pending request: the file records the answer, and the
 * asking teammate gets it as a message (permission_response or
 * plan_approval_response with the request id). Used by `teamd approve/reject`
 * and by the lead agent's answer_request tool.
 */
export async function answerRequest(
  repoRoot: string,
  mailbox: Sender,
  id: string,
  verdict: { approve: boolean; by: string; reason?: string },
): Promise<Answer> {
  const req = loadRequest(repoRoot, id);
  if (!req) return { ok: false, error: `no request "${id}" (see teamd approvals)` };
  if (req.status !== 'pending') return { ok: false, error: `request ${id} is already ${req.status}` };
  const reason = verdict.reason ?? '';
  const answered: PendingRequest = {
    ...req,
    status: verdict.approve ? 'approved' : 'rejected',
    answer: { by: verdict.by, reason, at: new Date().toISOString() },
  };
  await saveRequest(repoRoot, answered);
  const plan = req.kind === 'plan';
  const sent = await mailbox.send({
    from: verdict.by,
    to: req.agent,
    type: plan ? 'plan_approval_response' : 'permission_response',
    content: `${plan ? 'Plan' : `Permission for ${req.tool ?? 'the tool'}`} ${verdict.approve ? 'approved' : 'rejected'}${reason ? `: ${reason}` : ''}`,
    metadata: { request_id: id, approve: verdict.approve, reason },
  });
  if (!sent.ok)
    return {
      ok: false,
      error: `answer recorded, but the message to ${req.agent} failed: ${String(sent.error)}`,
    };
  return { ok: true, request: answered };
}
