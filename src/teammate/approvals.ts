import type { CanUseTool } from '../agent/permissions/types.js';
import type { MailboxStore } from '../store/mailbox/index.js';
import type { TeamEvent } from '../observe/types.js';
import { newRequestId, saveRequest, type PendingRequest } from './requests.js';
import type { Verdict, Waiters } from './waiters.js';

export interface ApprovalDeps {
  repoRoot: string;
  agent: string;
  mailbox: MailboxStore;
  waiters: Waiters;
  timeoutMs: number;
  currentTask: () => string | null;
  log: (e: TeamEvent) => void;
  /** Called while waiting (state `waiting`) and after (back to `working`). */
  onWaiting: (waiting: boolean) => void;
  /** Writes a request file (the lead does it for a teammate out of its process); default: here. */
  save?: (request: PendingRequest) => Promise<void>;
}

const summarise = (input: unknown): string => {
  const text = JSON.stringify(input) ?? '';
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
};

/**
 * Files a request, tells the lead, and waits for the verdict — at most
 * `timeoutMs`, after which the request expires (a deny), so an unanswered
 * prompt never hangs the teammate.
 */
export async function askAndWait(
  deps: ApprovalDeps,
  req: Pick<PendingRequest, 'kind' | 'tool' | 'input' | 'summary'>,
  signal?: AbortSignal,
): Promise<Verdict | 'timeout' | 'aborted'> {
  const now = Date.now();
  const request: PendingRequest = {
    ...req,
    id: newRequestId(req.kind),
    agent: deps.agent,
    task: deps.currentTask(),
    status: 'pending',
    createdAt: new Date(now).toISOString(),
    expiresAt: new Date(now + deps.timeoutMs).toISOString(),
    answer: null,
  };
  const save = deps.save ?? ((r: PendingRequest) => saveRequest(deps.repoRoot, r));
  await save(request);
  const type = req.kind === 'plan' ? 'plan_approval_request' : 'permission_request';
  await deps.mailbox.send({
    from: deps.agent,
    to: 'lead',
    type,
    content: req.kind === 'plan' ? (typeof req.input === 'string' ? req.input : req.summary) : `${deps.agent} asks to run ${req.summary}`,
    metadata: { request_id: request.id, tool: req.tool, input: req.input },
  });
  deps.log({ type: 'approval_requested', requestId: request.id, agent: deps.agent, kind: req.kind, summary: req.summary });
  deps.onWaiting(true);
  try {
    const verdict = await deps.waiters.wait(request.id, deps.timeoutMs, signal);
    if (verdict === 'timeout') {
      await save({ ...request, status: 'expired' });
      deps.log({ type: 'approval_expired', requestId: request.id, agent: deps.agent });
    }
    return verdict;
  } finally {
    deps.onWaiting(false);
  }
}

/** The runtime's `canUseTool` for a teammate: an `ask` becomes a request in the approvals queue. */
export function teammateCanUseTool(deps: ApprovalDeps): CanUseTool {
  return async (toolName, input, opts) => {
    const verdict = await askAndWait(
      deps,
      { kind: 'permission', tool: toolName, input, summary: `${toolName} ${summarise(input)}` },
      opts.signal,
    );
    if (verdict === 'timeout') {
      return { behavior: 'deny', message: `Permission for ${toolName} was not answered within ${Math.round(deps.timeoutMs / 1000)} s; treated as denied. Try another way or ask the lead.` };
    }
    if (verdict === 'aborted') return { behavior: 'deny', message: 'Interrupted while waiting for permission.' };
    if (!verdict.approve) return { behavior: 'deny', message: `Denied by ${verdict.by}${verdict.reason ? `: ${verdict.reason}` : ''}` };
    return { behavior: 'allow', updatedInput: verdict.updatedInput };
  };
}
