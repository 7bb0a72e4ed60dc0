/**
 * `permission_prompt`: Claude Code's `--permission-prompt-tool` contract,
 * routed to teamd's approvals queue. `claude -p --permission-prompt-tool
 * mcp__teamd__permission_prompt` calls it with `{tool_name, input,
 * tool_use_id}` when its rules say ask; the ask becomes a request file in
 * `.team/state/requests/` (the one `teamd approvals`, `teamd approve` and
 * `teamd reject` use, filed by the same `askAndWait` a teamd teammate uses),
 * and the answer is the text Claude Code reads: `{"behavior":"allow",
 * "updatedInput":{…}}` or `{"behavior":"deny","message":"…"}`. Unanswered
 * within `approvalTimeoutMs`, the request expires into a deny, as today.
 */
import { z } from 'zod';
import { teammateCanUseTool, type ApprovalDeps } from '../teammate/approvals.js';
import { loadRequest, saveRequest } from '../teammate/requests.js';
import { Waiters, type Verdict } from '../teammate/waiters.js';
import { watchAnswers } from './request-answers.js';
import { configOrDefaults, eventLog, mailboxFor, openTasks } from './stores.js';
import { defineMcpTool, ok, type McpScope } from './types.js';

/** Waiters that know which requests are being waited for, so the watch re-reads only those files. */
class RequestWaiters extends Waiters {
  readonly ids = new Set<string>();
  /** Every request filed through these waiters. */
  readonly asked: string[] = [];
  override async wait(id: string, timeoutMs: number, signal?: AbortSignal): Promise<Verdict | 'timeout' | 'aborted'> {
    this.ids.add(id);
    this.asked.push(id);
    try {
      return await super.wait(id, timeoutMs, signal);
    } finally {
      this.ids.delete(id);
    }
  }
}

type Decision = { behavior: 'allow'; updatedInput: unknown } | { behavior: 'deny'; message: string };

/** The task the agent holds now, for the request's `task` (null between tasks). */
async function currentTaskOf(scope: McpScope, agent: string): Promise<string | null> {
  const store = await openTasks(scope);
  return store.list({ status: 'in_progress', owner: agent })[0]?.id ?? null;
}

async function approvalDeps(scope: McpScope, agent: string, waiters: Waiters): Promise<ApprovalDeps | string> {
  const mailbox = await mailboxFor(scope);
  if (!mailbox.ok) return mailbox.error;
  const task = await currentTaskOf(scope, agent);
  const log = eventLog(scope);
  return {
    repoRoot: scope.repoRoot,
    agent,
    mailbox: mailbox.value,
    waiters,
    timeoutMs: (await configOrDefaults(scope)).approvalTimeoutMs,
    currentTask: () => task,
    log: (e) => log.append(e),
    onWaiting: () => {},
  };
}

/** Files the ask and waits for its answer (or its expiry); never throws: a failure is a deny. */
export async function askPermission(scope: McpScope, agent: string, ask: { tool: string; input: Record<string, unknown>; toolUseId: string }, signal: AbortSignal): Promise<Decision> {
  const waiters = new RequestWaiters();
  const deps = await approvalDeps(scope, agent, waiters);
  if (typeof deps === 'string') return { behavior: 'deny', message: `teamd could not file the permission request: ${deps}` };
  const watch = watchAnswers(scope.repoRoot, waiters, () => [...waiters.ids]);
  try {
    const verdict = await teammateCanUseTool(deps)(ask.tool, ask.input, { signal, toolUseId: ask.toolUseId, message: '' });
    // An answer from the files carries no changed input: the ask's own is what was approved.
    return verdict.behavior === 'allow' ? { behavior: 'allow', updatedInput: verdict.updatedInput ?? ask.input } : verdict;
  } finally {
    watch.close();
    if (signal.aborted) await expireAbandoned(scope, waiters.asked);
  }
}

/**
 * The client gave up (it cancelled the call, or it closed: Claude Code
 * exited): nobody is left to act on an answer, so the request expires now
 * instead of waiting in `teamd approvals` until its time runs out.
 */
async function expireAbandoned(scope: McpScope, ids: readonly string[]): Promise<void> {
  for (const id of ids) {
    const request = loadRequest(scope.repoRoot, id);
    if (request?.status !== 'pending') continue;
    await saveRequest(scope.repoRoot, { ...request, status: 'expired' });
    eventLog(scope).append({ type: 'approval_expired', requestId: id, agent: request.agent });
  }
}

export const permissionPrompt = defineMcpTool({
  name: 'permission_prompt',
  description: "Claude Code's --permission-prompt-tool: asks teamd's approvals queue (teamd approve/reject).",
  scope: 'agent',
  // Claude Code may send more than these fields: the rest is ignored, not refused.
  input: z.looseObject({
    tool_name: z.string().min(1).max(200),
    input: z.looseObject({}),
    tool_use_id: z.string().max(200).optional(),
  }),
  run: async (args, scope, signal) => {
    const agent = scope.as;
    if (agent === null) return ok({ behavior: 'deny', message: 'permission_prompt needs teamd mcp --as <agent>' });
    const ask = { tool: args.tool_name, input: args.input, toolUseId: args.tool_use_id ?? '' };
    return ok(await askPermission(scope, agent, ask, signal));
  },
});
