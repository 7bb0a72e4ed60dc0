/**
 * What an `AgentRuntime` is built from. Only `model` and `cwd` are required;
 * everything else has a default suited to one agent working alone.
 */
import type { HookRunner } from '../hooks/types.js';
import type { PriceOverrides } from '../model/pricing.js';
import type { ModelClient, ThinkingOptions } from '../model/types.js';
import type { AnyTool } from '../tools/types.js';
import type { ContextOptions } from './context/types.js';
import type { McpLoadOptions } from './mcp/types.js';
import type { MemoryOptions } from './memory/types.js';
import type { SubagentOptions } from './subagents/types.js';
import type { CanUseTool, PermissionPolicy } from './permissions/types.js';
import type { AgentEvent } from './types.js';

export interface AgentRuntimeOptions {
  model: ModelClient;
  /** The agent's root: tools never leave it. Also the hooks' cwd. */
  cwd: string;
  /** Defaults to `builtinTools()`. */
  tools?: AnyTool[];
  /** Replaces the default system prompt. */
  systemPrompt?: string;
  /** Added after the system prompt (default or given). */
  appendSystemPrompt?: string;
  /** Who this agent is: scripted models match rules by it; `agent` when alone. */
  agentName?: string;
  /** Model calls per run before `error_max_turns`; default 16. */
  maxTurns?: number;
  /** Spending per run (one `submitMessage`) before `error_max_budget_usd`. */
  maxBudgetUsd?: number;
  /** Output tokens per model call; default: the model's maximum output (src/model/models.ts). */
  maxTokens?: number;
  /** Extended thinking and effort for every model call of the run. */
  thinking?: ThinkingOptions;
  /** Default: `acceptEdits` with no rules. */
  permissionPolicy?: PermissionPolicy;
  /** Asked when the policy says `ask`; without it, an ask is a deny. */
  canUseTool?: CanUseTool;
  hooks?: HookRunner;
  /** Blocking Stop hooks may send the agent back to work this many times per run; default 8 (`CLAUDE_CODE_STOP_HOOK_BLOCK_CAP`). */
  maxStopHookBlocks?: number;
  /** A subagent's role name: `agent_type` in its hook payloads and the SubagentStop matcher. */
  agentType?: string;
  /** A subagent's hooks speak of the parent's session (Claude Code's rule); its own transcript is `agent_transcript_path`. */
  parentHookSession?: { session_id: string; transcript_path: string };
  /** A new random id when absent. Sanitised before use as a file name. */
  sessionId?: string;
  /** Continue the conversation saved under this session id (needs `transcriptDir`). */
  resume?: string;
  /** What started this runtime (a subagent's tool_use id, a teammate's session); null at the top. */
  parentId?: string | null;
  /** 0 for a top-level agent, 1 for a subagent. */
  depth?: number;
  /** Where `<session>.jsonl` transcripts go; none are written when absent. */
  transcriptDir?: string;
  /** Price overrides (USD per million tokens, by model name or prefix), as in `.team/config.json`. */
  prices?: PriceOverrides;
  /** Passed to every tool as `ctx.services`. */
  services?: Record<string, unknown>;
  /** Called with every event, in order, before it is yielded (a subagent's events too, with its `parent_id` and `depth`). */
  onEvent?: (event: AgentEvent) => void;
  /** The agent's role, stated in the session context at the start and again after every compaction. */
  role?: string;
  /** Session context, tool-result trimming, compaction and recovery (src/agent/context/types.ts); on by default. */
  context?: Partial<ContextOptions>;
  /** Gives a top-level agent the `task` tool (src/agent/subagents/types.ts); off when absent. */
  subagents?: SubagentOptions;
  /** `.memory/`: the memory tools and the index in the session context (src/agent/memory/types.ts); off when absent. */
  memory?: MemoryOptions;
  /** MCP servers (src/agent/mcp/types.ts): `true` for `.mcp.json` of the project root, or `loadMcpTools` options; off when absent. */
  mcp?: boolean | McpLoadOptions;
}

export const DEFAULT_MAX_TURNS = 16;
/** What a call asks for when nothing is configured and the model is unknown to the caller (kept for callers; model clients default to the model table). */
export const DEFAULT_MAX_TOKENS = 8192;
export const DEFAULT_MAX_STOP_HOOK_BLOCKS = 8;
export const DEFAULT_PERMISSION_POLICY: PermissionPolicy = {
  defaultMode: 'acceptEdits',
  allow: [],
  deny: [],
  ask: [],
};

export const DEFAULT_SYSTEM_PROMPT = [
  'You are a careful software engineer working in a repository.',
  'Use the tools to read, search, edit files and run commands; read a file before you edit it.',
  'When the task is done, answer with a short summary of what you did.',
].join('\n');

export function systemPromptOf(options: AgentRuntimeOptions): string {
  const base = options.systemPrompt ?? DEFAULT_SYSTEM_PROMPT;
  return options.appendSystemPrompt ? `${base}\n\n${options.appendSystemPrompt}` : base;
}
