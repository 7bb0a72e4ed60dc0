/**
 * Whether one validated tool call may run, and with which input: the gate's
 * policy decision, adjusted by a PreToolUse hook's `permissionDecision`, and
 * an `ask` settled by `canUseTool` (or denied when there is no approver).
 */
import type { AnyTool } from '../tools/types.js';
import type { CanUseTool, PermissionDecision, PermissionGate } from './permissions/types.js';
import { NO_APPROVER } from './tool-errors.js';

export type PermissionVerdict =
  | { allowed: true; input: unknown }
  /** `asIs`: the approver's message is the tool result as it is. */
  | { allowed: false; message: string; asIs?: boolean };

export interface PermissionStepInput {
  tool: AnyTool;
  input: unknown;
  toolUseId: string;
  gate: PermissionGate;
  place: { root: string; cwd: string; extraRoots?: readonly string[] };
  canUseTool?: CanUseTool;
  hookDecision?: 'allow' | 'deny' | 'ask';
  hookReason?: string;
  /** Before the approver: PermissionRequest hooks may answer instead (null: ask the approver). */
  onAsk?: (message: string) => Promise<AskAnswer | null>;
  signal: AbortSignal;
}

export type AskAnswer = { behavior: 'allow'; updatedInput?: unknown } | { behavior: 'deny'; message: string };

/** A hook may tighten (deny, ask) or waive an ask; it never overrides the policy's deny. */
function withHookDecision(decision: PermissionDecision, step: PermissionStepInput): PermissionDecision {
  const reason = `PreToolUse hook: ${step.hookReason ?? step.hookDecision}`;
  if (decision.behavior === 'deny' || step.hookDecision === undefined) return decision;
  if (step.hookDecision === 'deny') {
    return { behavior: 'deny', message: step.hookReason ?? 'denied by a hook', reason };
  }
  if (step.hookDecision === 'ask' && decision.behavior === 'allow') {
    return { behavior: 'ask', message: reason, reason };
  }
  if (step.hookDecision === 'allow' && decision.behavior === 'ask') return { behavior: 'allow', reason };
  return decision;
}

async function askApprover(step: PermissionStepInput, message: string): Promise<PermissionVerdict> {
  const hook = await step.onAsk?.(message);
  if (hook?.behavior === 'deny') return { allowed: false, message: hook.message };
  if (hook?.behavior === 'allow') return { allowed: true, input: hook.updatedInput ?? step.input };
  if (!step.canUseTool) return { allowed: false, message: `${message} (${NO_APPROVER})` };
  try {
    const answer = await step.canUseTool(step.tool.name, step.input, {
      signal: step.signal,
      toolUseId: step.toolUseId,
      message,
    });
    if (answer.behavior === 'deny')
      return { allowed: false, message: answer.message, ...(answer.asIs === true ? { asIs: true } : {}) };
    return { allowed: true, input: answer.updatedInput ?? step.input };
  } catch (error) {
    return { allowed: false, message: `the approver failed: ${(error as Error).message}` };
  }
}

export async function decidePermission(step: PermissionStepInput): Promise<PermissionVerdict> {
  const decision = withHookDecision(step.gate.check(step.tool, step.input, step.place), step);
  if (decision.behavior === 'deny') return { allowed: false, message: decision.message };
  if (decision.behavior === 'ask') return askApprover(step, decision.message);
  return { allowed: true, input: decision.updatedInput ?? step.input };
}
