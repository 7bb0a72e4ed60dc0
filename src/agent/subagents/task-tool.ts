/**
 * The `task` tool (Claude Code's `Task`): delegates a side quest to a
 * subagent and returns only its final answer, or, in the background, returns
 * an id at once and delivers the answer later as a `<task_notification>`.
 */
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { notifyTaskEnded, onSessionClose, taskNotificationText } from '../../tools/session-tasks.js';
import { defineTool, type AnyTool, type ToolContext, type ToolOutput } from '../../tools/types.js';
import type { SubagentHost } from './host.js';
import { runSubagent, type SubagentCall } from './run-subagent.js';
import { GENERAL_PURPOSE, TASK_TOOL_NAME, type SubagentRole } from './types.js';

const TaskInput = z.strictObject({
  description: z.string().min(1).max(200).describe('3 to 5 words'),
  prompt: z
    .string()
    .min(1)
    .describe('All it needs to know'),
  subagent_type: z.string().optional(),
  run_in_background: z
    .boolean()
    .optional()
    .describe('Answer later as a <task_notification>'),
});
type TaskInput = z.infer<typeof TaskInput>;

function describeTool(roles: ReadonlyMap<string, SubagentRole>): string {
  const list = [...roles.values()].map((r) => `- ${r.name}: ${r.description}`);
  return [
    `A subagent (fresh context) does one task, e.g. a search, and returns its report; calls in one message run in parallel. subagent_type (default ${GENERAL_PURPOSE}):`,
    ...list,
  ].join('\n');
}

const BACKGROUND_COUNTER_KEY = 'subagent_counter';

function nextBackgroundId(ctx: ToolContext): string {
  const n = ((ctx.session.get(BACKGROUND_COUNTER_KEY) as number | undefined) ?? 0) + 1;
  ctx.session.set(BACKGROUND_COUNTER_KEY, n);
  return `subagent-${n}`;
}

function notifyEnd(
  ctx: ToolContext,
  id: string,
  call: Omit<SubagentCall, 'signal'>,
  outcome: { text: string; failed: boolean },
): void {
  const fields = {
    task_id: id,
    kind: 'subagent',
    role: call.role.name,
    description: call.description,
    status: outcome.failed ? 'failed' : 'completed',
  };
  const text = taskNotificationText(fields, { tag: 'result', text: outcome.text });
  notifyTaskEnded(ctx.session, { taskId: id, text });
}

function inBackground(host: SubagentHost, call: Omit<SubagentCall, 'signal'>, ctx: ToolContext): ToolOutput {
  const id = nextBackgroundId(ctx);
  const controller = new AbortController();
  let stopped = false;
  const finished = runSubagent(host, { ...call, signal: controller.signal })
    .catch((error: unknown) => ({ text: `The subagent failed to run: ${String(error)}`, failed: true }))
    .then((outcome) => stopped || notifyEnd(ctx, id, call, outcome));
  const unregister = onSessionClose(ctx.session, async () => {
    stopped = true;
    controller.abort(new Error('the parent agent stopped'));
    await finished.catch(() => undefined);
  });
  void finished.catch(() => undefined).finally(unregister);
  return {
    content: `Started subagent ${id} (${call.role.name}) in the background. Its final answer arrives as a <task_notification>; go on with other work.`,
    summary: `task ${call.role.name}: ${call.description} → ${id} (background)`,
  };
}

async function run(host: SubagentHost, input: TaskInput, ctx: ToolContext): Promise<ToolOutput> {
  const name = input.subagent_type ?? GENERAL_PURPOSE;
  const role = host.roles.get(name);
  if (role === undefined) {
    const known = [...host.roles.keys()].join(', ');
    return { content: `Error: no subagent role "${name}". Roles: ${known}.`, isError: true };
  }
  const progress = (event: { type: string; summary?: string }): void => {
    if (event.type === 'tool_use_summary' && event.summary) ctx.onProgress(`[${role.name}] ${event.summary}`);
  };
  const call = {
    role,
    prompt: input.prompt,
    description: input.description,
    toolUseId: ctx.toolUseId ?? `task_${randomUUID()}`,
  };
  if (input.run_in_background) return inBackground(host, call, ctx);
  const outcome = await runSubagent(host, { ...call, signal: ctx.signal, onEvent: progress });
  return {
    content: outcome.text,
    isError: outcome.failed,
    summary: `task ${role.name}: ${input.description}`,
  };
}

export function createTaskTool(host: SubagentHost): AnyTool {
  return defineTool({
    name: TASK_TOOL_NAME,
    description: describeTool(host.roles),
    inputSchema: TaskInput,
    // the subagent's own calls pass its own permission gate; starting one changes nothing
    isReadOnly: () => true,
    isConcurrencySafe: () => true,
    run: (input, ctx) => run(host, input, ctx),
  });
}
