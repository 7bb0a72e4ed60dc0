/**
 * Everything one run (one `submitMessage`) works with, built from the
 * runtime's parts and options with their defaults. The loop and its steps
 * only read it (and update the conversation, stats and queue in it).
 */
import type { HookRunner } from '../hooks/types.js';
import { toolDefinition } from '../tools/index.js';
import type { AnyTool, ToolContext } from '../tools/types.js';
import type { ContextManager } from './context/manager.js';
import { newRecoveryState, type RecoveryState } from './context/steps.js';
import type { Conversation } from './conversation.js';
import type { StampEvent } from './events.js';
import type { InputQueue } from './input-queue.js';
import * as defaults from './options.js';
import type { ResolvedRuntimeOptions } from './options.js';
import { createPermissionGate } from './permissions/index.js';
import { noticingRunner, stopHookBlockCap } from './hook-calls.js';
import type { RunStats } from './run-stats.js';
import type { TurnEnv } from './turn.js';

export interface RunContext {
  conversation: Conversation;
  stats: RunStats;
  queue: InputQueue;
  stamp: StampEvent;
  signal: AbortSignal;
  turn: TurnEnv;
  hooks?: HookRunner;
  /** Fields every hook payload carries (`session_id`, `transcript_path`, `permission_mode`; a subagent's `agent_id`, `agent_type`). */
  hookBase: Record<string, unknown>;
  /** This runtime's own Claude-Code-shaped transcript (a subagent's `agent_transcript_path`). */
  hookTranscriptPath: string;
  /** The first run of a session fires SessionStart with this source; later runs, null. */
  sessionSource: 'startup' | 'resume' | null;
  /** What hooks left for the user (failed starts, `systemMessage`): the loop emits them as `system/hook` events. */
  hookNotices: string[];
  /** True for a subagent: its end runs `SubagentStop` hooks instead of `Stop`. */
  isSubagent: boolean;
  agentType?: string;
  maxTurns: number;
  maxBudgetUsd?: number;
  maxStopHookBlocks: number;
  /** Set when a hook answered `continue: false`: the run ends after the current step. */
  stopRequest: { reason: string | null };
  /** The runtime's context: session context, tool-result trimming, compaction. */
  context: ContextManager;
  /** Recovery after prompt_too_long and max_tokens, for this run. */
  recovery: RecoveryState;
}

/** What the runtime hands over to build a run's context. */
export interface RunParts {
  options: ResolvedRuntimeOptions;
  conversation: Conversation;
  queue: InputQueue;
  stamp: StampEvent;
  tools: AnyTool[];
  toolContext: Omit<ToolContext, 'signal' | 'onProgress'>;
  sessionId: string;
  /** The Claude-Code-shaped transcript hooks read (src/hooks/session.ts). */
  transcriptPath: string;
  sessionSource: 'startup' | 'resume' | null;
  controller: AbortController;
  stats: RunStats;
  context: ContextManager;
}

export function buildRunContext(parts: RunParts): RunContext {
  const { options: o, conversation, stats, controller } = parts;
  const stopRequest: RunContext['stopRequest'] = { reason: null };
  const hookBase = hookBaseOf(parts);
  const hookNotices: string[] = [];
  const hooks = o.hooks === undefined ? undefined : noticingRunner(o.hooks, hookNotices);
  return {
    conversation,
    stats,
    queue: parts.queue,
    stamp: parts.stamp,
    signal: controller.signal,
    hooks,
    hookBase,
    hookTranscriptPath: parts.transcriptPath,
    sessionSource: parts.sessionSource,
    hookNotices,
    isSubagent: (o.depth ?? 0) > 0,
    ...(o.agentType === undefined ? {} : { agentType: o.agentType }),
    maxTurns: o.maxTurns ?? defaults.DEFAULT_MAX_TURNS,
    maxBudgetUsd: o.maxBudgetUsd,
    maxStopHookBlocks: o.maxStopHookBlocks ?? stopHookBlockCap(),
    stopRequest,
    context: parts.context,
    recovery: newRecoveryState(),
    turn: {
      model: o.model,
      system: defaults.systemPromptOf(o),
      tools: parts.tools.filter((t) => t.unlisted !== true).map(toolDefinition),
      maxTokens: o.maxTokens,
      thinking: o.thinking,
      agent: o.agentName ?? 'agent',
      history: () => conversation.snapshot(),
      signal: controller.signal,
      abortRun: () => controller.abort(new Error('the caller stopped reading events')),
      stamp: parts.stamp,
      recordAssistant: (done) => conversation.addAssistant(done),
      executor: {
        tools: new Map(parts.tools.map((t) => [t.name, t])),
        gate: createPermissionGate(o.permissionPolicy ?? defaults.DEFAULT_PERMISSION_POLICY),
        canUseTool: o.canUseTool,
        hooks,
        hookBase,
        context: parts.toolContext,
        recordDenial: (denial) => stats.denials.push(denial),
        requestStop: (reason) => (stopRequest.reason ??= reason),
      },
    },
  };
}

/** Claude Code's common fields; a subagent's name the parent's session and add who it is. */
function hookBaseOf(parts: RunParts): Record<string, unknown> {
  const o = parts.options;
  const mode = o.permissionPolicy?.defaultMode ?? defaults.DEFAULT_PERMISSION_POLICY.defaultMode;
  const own = { session_id: parts.sessionId, transcript_path: parts.transcriptPath, permission_mode: mode };
  if ((o.depth ?? 0) === 0) return own;
  return {
    ...own,
    ...o.parentHookSession,
    agent_id: o.parentId ?? parts.sessionId,
    agent_type: o.agentType ?? o.agentName ?? 'agent',
  };
}
