/**
 * One tool call from the model's block to its `tool_result`: validate, run the
 * PreToolUse hooks, ask the permission gate, run the tool, run the PostToolUse
 * hooks. Every failure becomes an `is_error` result; nothing here throws.
 */
import type { ToolUseBlock } from '../model/types.js';
import type { AnyTool, ToolContext, ToolOutput } from '../tools/types.js';
import { admit, placeOf, toolHooks } from './admission.js';
import { toolResponse } from './hook-calls.js';
import { noteWorkspaceChange } from './context/git.js';
import * as errors from './tool-errors.js';
import {
  errorOutcome,
  type CallOutcome,
  type PreparedCall,
  type ReadyCall,
  type ToolCallEnv,
} from './tool-call-types.js';

export type { CallOutcome, PreparedCall, ToolCallEnv } from './tool-call-types.js';

function safely(check: () => boolean): boolean {
  try {
    return check();
  } catch {
    return false;
  }
}

export function prepareCall(block: ToolUseBlock, tools: Map<string, AnyTool>): PreparedCall {
  const tool = tools.get(block.name);
  if (!tool) {
    return {
      kind: 'rejected',
      block,
      tool: block.name,
      message: errors.unknownToolError(block.name, [...tools.keys()]),
    };
  }
  const parsed = tool.inputSchema.safeParse(block.input);
  if (!parsed.success) {
    return {
      kind: 'rejected',
      block,
      tool: tool.name,
      message: errors.invalidInputError(tool.name, parsed.error),
    };
  }
  const concurrencySafe = safely(() => tool.isConcurrencySafe(parsed.data));
  return { kind: 'ready', block, tool, input: parsed.data, concurrencySafe };
}

export function rejectedOutcome(call: Extract<PreparedCall, { kind: 'rejected' }>): CallOutcome {
  return errorOutcome(call.block, call.message, `${call.tool}: rejected (${call.message.split('\n')[0]})`);
}

function summaryOf(tool: AnyTool, output: ToolOutput): string {
  if (output.summary) return output.summary;
  const firstLine = output.content.split('\n', 1)[0] ?? '';
  return `${tool.name}: ${firstLine.slice(0, 120)}`;
}

function mayWrite(tool: AnyTool, input: unknown): boolean {
  try {
    return !tool.isReadOnly(input);
  } catch {
    return true;
  }
}

async function runTool(
  tool: AnyTool,
  input: unknown,
  ctx: ToolContext,
): Promise<ToolOutput & { threw: boolean }> {
  try {
    return { ...(await tool.run(input, ctx)), threw: false };
  } catch (error) {
    return { content: errors.thrownError(tool.name, error), isError: true, threw: true };
  } finally {
    if (mayWrite(tool, input)) noteWorkspaceChange();
  }
}

/** PostToolUse (or, when the tool failed, PostToolUseFailure) hooks: their feedback joins the result. */
async function postToolUse(
  call: ReadyCall,
  input: unknown,
  output: ToolOutput,
  env: ToolCallEnv,
  signal: AbortSignal,
  durationMs: number,
) {
  const plain = output.content.length > 0 ? output.content : '(no output)';
  const failed = output.isError ?? false;
  const extra = failed
    ? { error: output.content, is_interrupt: signal.aborted, duration_ms: durationMs }
    : { tool_response: toolResponse(call.tool, input, output.content, false, placeOf(env)), duration_ms: durationMs };
  const event = failed ? 'PostToolUseFailure' : 'PostToolUse';
  const hook = await toolHooks(event, call, input, env, extra, signal);
  if (hook === null) return plain;
  if (!hook.continue) env.requestStop(hook.stopReason ?? `a ${event} hook stopped the run`);
  const notes = [hook.blocked ? `[${event} hook] ${hook.reason ?? 'blocked'}` : '', hook.additionalContext ?? ''];
  const content = [output.content, ...notes.filter((n) => n.length > 0)].join('\n\n');
  return content.length > 0 ? content : '(no output)';
}

/** Runs an admitted-or-not call to its outcome. `onProgress` feeds `progress` events. */
export async function executeCall(
  call: ReadyCall,
  env: ToolCallEnv,
  signal: AbortSignal,
  onProgress: (text: string) => void,
): Promise<CallOutcome> {
  const admission = await admit(call, env, signal);
  if (!admission.ok) return admission.outcome;
  const startedAt = Date.now();
  const output = await runTool(call.tool, admission.input, {
    ...env.context,
    signal,
    onProgress,
    toolUseId: call.block.id,
  });
  const after = await postToolUse(call, admission.input, output, env, signal, Date.now() - startedAt);
  const content = admission.context === undefined ? after : `${after}\n\n${admission.context}`;
  const isError = output.isError ?? false;
  return {
    result: {
      type: 'tool_result',
      tool_use_id: call.block.id,
      content: output.media?.length ? [{ type: 'text', text: content }, ...output.media] : content,
      ...(isError ? { is_error: true } : {}),
    },
    failed: isError,
    summary: output.threw ? `${call.tool.name}: failed while running` : summaryOf(call.tool, output),
  };
}
