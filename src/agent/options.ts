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
import type { MemoryOptions, MemoryWriter } from './memory/types.js';
import type { SubagentOptions } from './subagents/types.js';
import type { CanUseTool, PermissionPolicy } from './permissions/types.js';
import { z } from 'zod';
import { DEFAULT_MAX_TURNS, PermissionPolicySchema } from '../config/schema.js';
import { checkedBy, fn, objectOf, parseOptions, withMethods } from '../config/options.js';
import { ContextOptionsSchema } from './context/options.js';
import { SubagentRoleSchema } from './subagents/types.js';
import type { AgentEvent } from './types.js';
import type { TranscriptOpener } from './transcript.js';

const SubagentOptionsSchema = z.strictObject({
  roles: z.array(SubagentRoleSchema).optional(),
  roleFiles: z.boolean().optional(),
  userRolesDir: z.string().nullable().optional(),
  maxTurns: z.number().int().positive().optional(),
  modelFor: fn<(model: string) => Promise<ModelClient>>('model name → a ModelClient').optional(),
});

const MemoryOptionsSchema = z.strictObject({
  dir: z.string().min(1).optional(),
  tools: z.boolean().optional(),
  searchModel: withMethods<ModelClient>('a ModelClient', ['stream']).optional(),
  write: fn<MemoryWriter>('(dir, input) → Promise<Outcome<WrittenMemory>>').optional(),
});

const McpOptionsSchema = z.strictObject({
  only: z.array(z.string()).optional(),
  servers: z.record(z.string(), objectOf<unknown>('a server: { command, args? } or { type, url }')).optional(),
  configFile: z.string().min(1).optional(),
  connectTimeoutMs: z.number().int().positive().optional(),
  callTimeoutMs: z.number().int().positive().optional(),
  env: z.record(z.string(), z.string().optional()).optional(),
});

/**
 * The options of an `AgentRuntime`, validated when it is built: a wrong
 * option throws an `OptionsError` naming it (`permissionPolicy.defaultMode:
 * expected one of …`). Unknown options are refused, so a misspelt one is not
 * silently ignored. The types below are inferred from this schema.
 */
export const AgentRuntimeOptionsSchema = z.strictObject({
  model: withMethods<ModelClient>('a ModelClient, e.g. from createModelClient()', ['stream']),
  /** The agent's root: tools never leave it. Also the hooks' cwd. */
  cwd: z.string().min(1, 'expected a directory path'),
  /** More directories the file tools may reach (Claude Code's `--add-dir`): existing directories, named in the session context. */
  additionalDirectories: z.array(z.string().min(1, 'expected a directory path')).optional(),
  /** Defaults to `builtinTools()`. */
  tools: z.array(withMethods<AnyTool>('a tool, e.g. from defineTool()', ['run', 'isReadOnly'])).optional(),
  /** Replaces the default system prompt. */
  systemPrompt: z.string().optional(),
  /** Added after the system prompt (default or given). */
  appendSystemPrompt: z.string().optional(),
  /** Who this agent is: scripted models match rules by it; `agent` when alone. */
  agentName: z.string().min(1).optional(),
  /** Model calls per run before `error_max_turns`; default DEFAULT_MAX_TURNS (40). */
  maxTurns: z.number().int().positive().optional(),
  /** Spending per run (one `submitMessage`) before `error_max_budget_usd`. */
  maxBudgetUsd: z.number().positive().optional(),
  /** Output tokens per model call; default: the model's maximum output (src/model/models.ts). */
  maxTokens: z.number().int().positive().optional(),
  /** Extended thinking and effort for every model call of the run. */
  thinking: objectOf<ThinkingOptions>('thinking options ({ thinking?, thinkingBudget?, effort? })').optional(),
  /** Default: `acceptEdits` with no rules; `allow`, `deny` and `ask` default to none. */
  permissionPolicy: PermissionPolicySchema.optional(),
  /** Asked when the policy says `ask`; without it, an ask is a deny. */
  canUseTool: fn<CanUseTool>('toolName, input, opts → a decision').optional(),
  hooks: withMethods<HookRunner>('a HookRunner, e.g. from createHookRunner()', ['run']).optional(),
  /** Blocking Stop hooks may send the agent back to work this many times per run; default 8 (`CLAUDE_CODE_STOP_HOOK_BLOCK_CAP`). */
  maxStopHookBlocks: z.number().int().nonnegative().optional(),
  /** A subagent's role name: `agent_type` in its hook payloads and the SubagentStop matcher. */
  agentType: z.string().min(1).optional(),
  /** A subagent's hooks speak of the parent's session (Claude Code's rule); its own transcript is `agent_transcript_path`. */
  parentHookSession: z.object({ session_id: z.string(), transcript_path: z.string() }).optional(),
  /** A new random id when absent. Sanitised before use as a file name. */
  sessionId: z.string().optional(),
  /** Continue the conversation saved under this session id (needs `transcriptDir`). */
  resume: z.string().optional(),
  /** With `resume`: the conversation goes on under a new session id (`sessionId`, else a random one); the old transcript is left as it was. */
  forkSession: z.boolean().optional(),
  /** What started this runtime (a subagent's tool_use id, a teammate's session); null at the top. */
  parentId: z.string().nullable().optional(),
  /** 0 for a top-level agent, 1 for a subagent. */
  depth: z.number().int().nonnegative().optional(),
  /** Where `<session>.jsonl` transcripts go; none are written when absent. */
  transcriptDir: z.string().optional(),
  /** Opens the transcript of a session in `transcriptDir` (default: the file there); an out-of-process teammate's sends its lines to the lead. */
  openTranscript: fn<TranscriptOpener>('(dir, header) → Outcome<TranscriptWriter>').optional(),
  /** Price overrides (USD per million tokens, by model name or prefix), as in `.team/config.json`. */
  prices: objectOf<PriceOverrides>('model name → { input, output, cacheRead?, cacheWrite? }').optional(),
  /** Passed to every tool as `ctx.services`. */
  services: z.record(z.string(), z.unknown()).optional(),
  /** Called with every event, in order, before it is yielded (a subagent's events too, with its `parent_id` and `depth`). */
  onEvent: fn<(event: AgentEvent) => void>('event → void').optional(),
  /** The agent's role, stated in the session context at the start and again after every compaction. */
  role: z.string().optional(),
  /** Session context, tool-result trimming, compaction and recovery (src/agent/context/types.ts); on by default. */
  context: checkedBy<Partial<ContextOptions>>(ContextOptionsSchema, 'context options').optional(),
  /** Gives a top-level agent the `task` tool (src/agent/subagents/types.ts); off when absent. */
  subagents: checkedBy<SubagentOptions>(SubagentOptionsSchema, 'subagent options').optional(),
  /** `.memory/`: the memory tools and the index in the session context (src/agent/memory/types.ts); off when absent. */
  memory: checkedBy<MemoryOptions>(MemoryOptionsSchema, 'memory options').optional(),
  /** MCP servers (src/agent/mcp/types.ts): `true` for `.mcp.json` of the project root, or `loadMcpTools` options; off when absent. */
  mcp: z.union([z.boolean(), checkedBy<McpLoadOptions>(McpOptionsSchema, 'loadMcpTools options')]).optional(),
});

/** What a program passes to `new AgentRuntime(…)`. Only `model` and `cwd` are required. */
export type AgentRuntimeOptions = z.input<typeof AgentRuntimeOptionsSchema>;
/** The options after validation (the permission policy filled in). */
export type ResolvedRuntimeOptions = z.output<typeof AgentRuntimeOptionsSchema>;

/** Validates a runtime's options; throws an `OptionsError` naming every bad one. */
export const parseRuntimeOptions = (options: unknown): ResolvedRuntimeOptions =>
  parseOptions('AgentRuntime options', AgentRuntimeOptionsSchema, options);

export { DEFAULT_MAX_TURNS };
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
