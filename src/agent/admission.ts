/**
 * Whether a validated call may run, and with which input: the PreToolUse hooks
 * (which may block, rewrite the input, or decide), then the permission gate
 * and, on `ask`, the approver. A refusal is a finished `is_error` outcome.
 */
import type { HookOutcome } from '../hooks/types.js';
import { SESSION_CWD_KEY } from '../tools/context.js';
import { claudeCodeToolName } from '../tools/claude-names.js';
import { ifRuleTest, toolPayload, type CallPlace } from './hook-calls.js';
import { decidePermission, type AskAnswer } from './permission-step.js';
import * as errors from './tool-errors.js';
import { errorOutcome, type CallOutcome, type ReadyCall, type ToolCallEnv } from './tool-call-types.js';

/** Where bash's last `cd` left the agent (the gate judges relative paths from there). */
function shellCwd(env: ToolCallEnv): string {
  const kept = env.context.session.get(SESSION_CWD_KEY);
  return typeof kept === 'string' ? kept : env.context.cwd;
}

/** The root and the shell's cwd: what paths in a call are relative to. */
export function placeOf(env: ToolCallEnv): CallPlace {
  const extra = env.context.extraRoots;
  return { root: env.context.root, cwd: shellCwd(env), ...(extra === undefined ? {} : { extraRoots: extra }) };
}

/** Runs a tool event's hooks with Claude Code's payload, matcher and `if` test. */
export function toolHooks(
  event: 'PreToolUse' | 'PermissionRequest' | 'PostToolUse' | 'PostToolUseFailure',
  call: ReadyCall,
  input: unknown,
  env: ToolCallEnv,
  extra: Record<string, unknown>,
  signal: AbortSignal,
): Promise<HookOutcome> | null {
  if (!env.hooks?.has(event)) return null;
  const place = placeOf(env);
  const server = /^mcp__([^_]+(?:_[^_]+)*?)__/.exec(call.tool.name)?.[1];
  const payload = {
    ...env.hookBase,
    ...toolPayload(call.tool, input, call.block.id, place),
    ...(server === undefined ? {} : { mcp_server: server }), // Claude Code names an MCP tool's server
    ...extra,
  };
  return env.hooks.run(event, payload, { matchValue: call.tool.name, signal, ifFits: ifRuleTest(call.tool, input, place) });
}

async function preToolUse(call: ReadyCall, env: ToolCallEnv, signal: AbortSignal): Promise<HookOutcome | null> {
  return toolHooks('PreToolUse', call, call.input, env, {}, signal);
}

/**
 * Before the approver is asked: PermissionRequest hooks may answer for the
 * user (allow, with a rewritten input, or deny); otherwise a Notification
 * (`permission_prompt`) says the agent waits for permission.
 */
function onAsk(call: ReadyCall, env: ToolCallEnv, input: unknown, signal: AbortSignal) {
  return async (message: string): Promise<AskAnswer | null> => {
    const hook = await toolHooks('PermissionRequest', call, input, env, { permission_suggestions: [] }, signal);
    if (hook?.permissionDecision === 'deny') return { behavior: 'deny', message: hook.reason ?? 'denied by a PermissionRequest hook' };
    if (hook?.permissionDecision === 'allow')
      return { behavior: 'allow', ...(hook.updatedInput === undefined ? {} : { updatedInput: hook.updatedInput }) };
    if (env.hooks?.has('Notification')) {
      const note = { ...env.hookBase, message: `Claude needs your permission to use ${claudeCodeToolName(call.tool.name)}`, title: message, notification_type: 'permission_prompt' };
      void env.hooks.run('Notification', note, { matchValue: 'permission_prompt' });
    }
    return null;
  };
}

/** `context`: a PreToolUse hook's `additionalContext`, for the model with the tool's result. */
type Admission = { ok: true; input: unknown; context?: string } | { ok: false; outcome: CallOutcome };

const refuse = (call: ReadyCall, text: string, why: string): Admission => ({
  ok: false,
  outcome: errorOutcome(call.block, text, `${call.tool.name}: ${why}`),
});

function revalidate(call: ReadyCall, input: unknown): Admission {
  const parsed = call.tool.inputSchema.safeParse(input);
  if (parsed.success) return { ok: true, input: parsed.data };
  return refuse(call, errors.hookInputError(call.tool.name, parsed.error), 'rewritten input invalid');
}

/** The gate (and approver) on the input as the hooks left it. */
async function askGate(
  call: ReadyCall,
  env: ToolCallEnv,
  input: unknown,
  hook: HookOutcome | null,
  signal: AbortSignal,
): Promise<Admission> {
  const verdict = await decidePermission({
    tool: call.tool,
    input,
    toolUseId: call.block.id,
    gate: env.gate,
    place: placeOf(env),
    canUseTool: env.canUseTool,
    hookDecision: hook?.permissionDecision,
    hookReason: hook?.reason,
    onAsk: onAsk(call, env, input, signal),
    signal,
  });
  if (verdict.allowed) return verdict.input === input ? { ok: true, input } : revalidate(call, verdict.input);
  const denial = {
    tool_name: call.tool.name,
    tool_use_id: call.block.id,
    tool_input: input,
    message: verdict.message,
  };
  env.recordDenial(denial);
  const text = verdict.asIs === true ? verdict.message : errors.permissionDeniedError(call.tool.name, verdict.message);
  return refuse(call, text, 'permission denied');
}

/** PreToolUse hooks, then the permission gate: the input the tool may run with, or why not. */
export async function admit(call: ReadyCall, env: ToolCallEnv, signal: AbortSignal): Promise<Admission> {
  const hook = await preToolUse(call, env, signal);
  const admitted = await decide(call, env, hook, signal);
  const context = hook?.additionalContext;
  return admitted.ok && context !== undefined ? { ...admitted, context } : admitted;
}

async function decide(call: ReadyCall, env: ToolCallEnv, hook: HookOutcome | null, signal: AbortSignal): Promise<Admission> {
  if (hook && !hook.continue) env.requestStop(hook.stopReason ?? 'a PreToolUse hook stopped the run');
  if (hook?.blocked) {
    const reason = hook.reason ?? 'no reason given';
    // A hook's block is a denial like the gate's: the result lists it with the rest.
    env.recordDenial({
      tool_name: call.tool.name,
      tool_use_id: call.block.id,
      tool_input: call.input,
      message: `blocked by a PreToolUse hook: ${reason}`,
    });
    return refuse(call, errors.hookBlockedError(call.tool.name, reason), 'blocked by hook');
  }
  if (hook?.updatedInput === undefined) return askGate(call, env, call.input, hook, signal);
  const rewritten = revalidate(call, hook.updatedInput);
  return rewritten.ok ? askGate(call, env, rewritten.input, hook, signal) : rewritten;
}
