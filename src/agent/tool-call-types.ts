/**
 * The shapes a tool call passes through on its way to a `tool_result`, shared
 * by the executor (scheduling), the admission step (hooks, permissions) and
 * the call itself.
 */
import type { HookRunner } from '../hooks/types.js';
import type { ToolUseBlock, ToolResultBlock } from '../model/types.js';
import type { AnyTool, ToolContext } from '../tools/types.js';
import type { CanUseTool, PermissionGate } from './permissions/types.js';
import type { PermissionDenial } from './types.js';

/** A call checked against the tool list and its schema, before it is scheduled. */
export type PreparedCall =
  | { kind: 'rejected'; block: ToolUseBlock; tool: string; message: string }
  | { kind: 'ready'; block: ToolUseBlock; tool: AnyTool; input: unknown; concurrencySafe: boolean };

export interface CallOutcome {
  result: ToolResultBlock;
  /** The tool's own `run` was reached and reported a failure (or threw). */
  failed: boolean;
  summary: string;
}

/** What a call needs from the runtime. */
export interface ToolCallEnv {
  gate: PermissionGate;
  canUseTool?: CanUseTool;
  hooks?: HookRunner;
  /** Fields every hook payload carries (`session_id`, `transcript_path`). */
  hookBase: Record<string, unknown>;
  /** The tool context minus what each call gets of its own. */
  context: Omit<ToolContext, 'signal' | 'onProgress'>;
  recordDenial(denial: PermissionDenial): void;
  /** A hook asked to stop the run (`continue: false`). */
  requestStop(reason: string): void;
}

export type ReadyCall = Extract<PreparedCall, { kind: 'ready' }>;

export const errorOutcome = (
  block: ToolUseBlock,
  text: string,
  summary: string,
  failed = false,
): CallOutcome => ({
  result: { type: 'tool_result', tool_use_id: block.id, content: text, is_error: true },
  failed,
  summary,
});
