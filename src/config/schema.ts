/**
 * `.team/config.json`: who is on the team, which model each uses, limits,
 * permissions, worktrees, merges. Every field has a default, so `{}` is a
 * valid config (one lead and two teammates on the default model).
 */
import { z } from 'zod';
import { SshHostConfigSchema } from './ssh-host.js';
import { AgentNameSchema } from '../store/types.js';

/**
 * Model calls per run before `error_max_turns`, for a teammate's task and for
 * `teamd agent` alike. 40: a real change takes 20–30 calls (bench/tokens' long
 * workload, 19 calls a task, and its first task's 20, end at 16 with
 * error_max_turns), with room to recover from a failed check; cost stays
 * bounded by maxBudgetUsd and the team's budget caps.
 */
export const DEFAULT_MAX_TURNS = 40;

export const PermissionPolicySchema = z.strictObject({
  /** What happens when no rule matches: `default` asks for edits and non-read-only bash. */
  defaultMode: z.enum(['default', 'acceptEdits', 'bypassPermissions', 'plan', 'dontAsk']).default('acceptEdits'),
  allow: z.array(z.string()).default([]),
  deny: z.array(z.string()).default([]),
  ask: z.array(z.string()).default([]),
  /** More directories the file tools may reach (Claude Code's `permissions.additionalDirectories`), relative to the repository. */
  additionalDirectories: z.array(z.string().min(1, 'expected a directory path')).optional(),
});
export type PermissionPolicyConfig = z.infer<typeof PermissionPolicySchema>;

/**
 * Extended thinking and output length, per team and per teammate (a
 * teammate's own value wins). `thinking`: `off` (default), `adaptive` (the
 * model decides; a budget-only model gets `enabled`), `enabled` (a fixed
 * `thinkingBudget`, default 10 000). `effort` goes to models that take it.
 * `maxTokens` defaults to the model's maximum output (src/model/models.ts).
 */
const modelTuning = {
  maxTokens: z.number().int().positive().optional(),
  thinking: z.enum(['off', 'adaptive', 'enabled']).optional(),
  thinkingBudget: z.number().int().min(1_024).optional(),
  effort: z.enum(['low', 'medium', 'high', 'max']).optional(),
};

const EnvNameSchema = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'an environment variable name');

/**
 * Where an agent's model calls go (docs/MODELS.md, "Compatible endpoints"):
 * the base URL, and the *name* of the environment variable holding its token
 * (sent as `Authorization: Bearer`) or API key. Unset fields fall back to
 * `ANTHROPIC_BASE_URL`, `ANTHROPIC_API_KEY`, `ANTHROPIC_AUTH_TOKEN`.
 */
export const EndpointConfigSchema = z
  .strictObject({
    baseURL: z.url().optional(),
    tokenEnv: EnvNameSchema.optional(),
    apiKeyEnv: EnvNameSchema.optional(),
  })
  .refine((e) => e.tokenEnv === undefined || e.apiKeyEnv === undefined, {
    message: 'give tokenEnv or apiKeyEnv, not both',
  });
export type EndpointConfig = z.infer<typeof EndpointConfigSchema>;

/** Model-call retries (429, 408, 409, 5xx, 529, connection failures): how many, and for how long in all. */
export const RetryConfigSchema = z.strictObject({
  maxRetries: z.number().int().nonnegative().default(6),
  /** No retry starts once a call has run this long. */
  capMs: z.number().int().positive().default(120_000),
  /** The first retry waits about this long, doubling each time up to `maxDelayMs` (a server's retry-after wins). */
  baseDelayMs: z.number().int().nonnegative().default(500),
  maxDelayMs: z.number().int().nonnegative().default(30_000),
});
export type RetryConfig = z.infer<typeof RetryConfigSchema>;

/**
 * Where a teammate runs (docs/HOSTS.md): `thread` (a worker thread of the
 * lead, the default), `process` (a child `teamd teammate --stdio`), `sandbox`
 * (the process host inside bubblewrap), `ssh` (the process host on another machine).
 */
export const HostConfigSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('thread') }),
  z.strictObject({ kind: z.literal('process') }),
  z.strictObject({
    kind: z.literal('sandbox'),
    /** Extra paths the sandbox sees read-only (absolute, `~/…`, or relative to the repository). */
    readOnly: z.array(z.string()).default([]),
    /** Extra paths the sandbox may write (absolute, `~/…`, or relative to the repository). */
    writable: z.array(z.string()).default([]),
    /** Opt-in: keep the host's network inside the sandbox (off: no network at all). */
    network: z.boolean().default(false),
  }),
  SshHostConfigSchema,
]);
export type HostConfig = z.infer<typeof HostConfigSchema>;
/** The agent that runs a teammate's tasks (docs/ENGINES.md). */
export const EngineSchema = z.enum(['teamd', 'claude-code']);
export type Engine = z.infer<typeof EngineSchema>;

/** The `claude-code` engine's program: `bin` (else $TEAMD_CLAUDE_BIN, else `claude` on PATH) and extra arguments. */
export const ClaudeCodeConfigSchema = z.strictObject({
  bin: z.string().min(1).optional(),
  /** Added to every run's arguments (after teamd's). */
  args: z.array(z.string()).optional(),
  /** Set in the CLI's environment (e.g. `CLAUDE_CONFIG_DIR`); the endpoint's variables win. */
  env: z.record(z.string(), z.string()).optional(),
});

export const TeammateConfigSchema = z.strictObject({
  name: AgentNameSchema,
  /** A system prompt, or `agent:<name>` for a `.claude/agents/<name>.md` role. */
  role: z.string().default('You are a careful software engineer on a team.'),
  /** Model name, or `scripted:<path>`. Defaults to the team's model. */
  model: z.string().optional(),
  /** This teammate's endpoint (a local model, say), instead of the team's. */
  endpoint: EndpointConfigSchema.optional(),
  /** Model calls per task (DEFAULT_MAX_TURNS). */
  maxTurns: z.number().int().positive().default(DEFAULT_MAX_TURNS),
  maxBudgetUsd: z.number().positive().optional(),
  /** Tool names this teammate may use; all when absent. */
  tools: z.array(z.string()).optional(),
  permissions: PermissionPolicySchema.optional(),
  /** This teammate's own hooks (settings.json's shape), beside the team's; an `agent:<name>` role's file fills it. */
  hooks: z.record(z.string(), z.unknown()).optional(),
  planMode: z.boolean().default(false),
  autoApproveShutdown: z.boolean().default(true),
  /** Where this teammate runs; the team's `host` when absent. */
  host: HostConfigSchema.optional(),
  /** What runs this teammate's tasks: teamd's own agent, or the Claude Code CLI (docs/ENGINES.md). Default the team's `engine`. */
  engine: EngineSchema.optional(),
  ...modelTuning,
});
export type TeammateConfig = z.infer<typeof TeammateConfigSchema>;

export const WorktreeConfigSchema = z.strictObject({
  mode: z.enum(['per-task', 'per-teammate', 'off']).default('per-task'),
  /** The branch finished work merges into. Created from the current branch when missing. */
  integrationBranch: z.string().default('teamd/integration'),
  /** Run in each new worktree (e.g. `npm ci`). */
  setup: z.string().optional(),
  /** Run after rebasing a task branch, before it merges (e.g. `npm test`). */
  verify: z.string().optional(),
  verifyTimeoutMs: z.number().int().positive().default(600_000),
});

const DAY_MS = 86_400_000;

/** The defaults of `history` (the event and daemon logs, finished tasks, transcripts, the mail archive). */
export const HISTORY_DEFAULTS = {
  rotateBytes: 64 * 1024 * 1024,
  rotateAfterMs: 7 * DAY_MS,
  keepSegmentsMs: 90 * DAY_MS,
  archiveTasksAfterMs: 7 * DAY_MS,
  keepFinishedTasks: 1_000,
  compressAfterMs: 7 * DAY_MS,
  gcEveryMs: 3_600_000,
};

export const HistoryConfigSchema = z.strictObject({
  /** The event log and the daemon log rotate into a compressed segment past this size (bytes). */
  rotateBytes: z.number().int().positive().default(HISTORY_DEFAULTS.rotateBytes),
  /** …or once their oldest line is older than this. */
  rotateAfterMs: z.number().int().positive().default(HISTORY_DEFAULTS.rotateAfterMs),
  /** Compressed log segments older than this are deleted. */
  keepSegmentsMs: z.number().int().positive().default(HISTORY_DEFAULTS.keepSegmentsMs),
  /** Completed and cancelled tasks unchanged for this long move to `.tasks/archive/`. */
  archiveTasksAfterMs: z.number().int().nonnegative().default(HISTORY_DEFAULTS.archiveTasksAfterMs),
  /** …and the oldest beyond the newest this many, whatever their age (a task whose merge is open stays). */
  keepFinishedTasks: z.number().int().nonnegative().default(HISTORY_DEFAULTS.keepFinishedTasks),
  /** Transcripts and mailbox archives not written for this long are compressed. */
  compressAfterMs: z.number().int().nonnegative().default(HISTORY_DEFAULTS.compressAfterMs),
  /** How often a running lead does what `teamd gc` does (0: never by itself). */
  gcEveryMs: z.number().int().nonnegative().default(HISTORY_DEFAULTS.gcEveryMs),
});
export type HistoryConfig = z.infer<typeof HistoryConfigSchema>;

export const TeamConfigSchema = z.strictObject({
  $schema: z.string().optional(),
  /** The default model for every agent: an Anthropic model name or `scripted:<path>`. */
  model: z.string().default('claude-sonnet-5-5'),
  fallbackModel: z.string().optional(),
  ...modelTuning,

  /** The team's endpoint; a teammate's own `endpoint` replaces it. */
  endpoint: EndpointConfigSchema.optional(),
  retry: RetryConfigSchema.default({ maxRetries: 6, capMs: 120_000, baseDelayMs: 500, maxDelayMs: 30_000 }),
  teammates: z
    .array(TeammateConfigSchema)
    .default([{ name: 'worker-1' }, { name: 'worker-2' }].map((t) => TeammateConfigSchema.parse(t))),
  lead: z
    .strictObject({
      /** Run the lead's own agent to answer its mailbox in `start` mode. */
      agent: z.boolean().default(false),
      model: z.string().optional(),
      /** The endpoint of the lead's own agents (mail, goals, reviews); default the team's. */
      endpoint: EndpointConfigSchema.optional(),
      role: z.string().optional(),
      maxTurns: z.number().int().positive().default(24),
    })
    .default({ agent: false, maxTurns: 24 }),
  permissions: PermissionPolicySchema.default({ defaultMode: 'acceptEdits', allow: [], deny: [], ask: [] }),
  worktrees: WorktreeConfigSchema.default({
    mode: 'per-task',
    integrationBranch: 'teamd/integration',
    verifyTimeoutMs: 600_000,
  }),
  /** A claimed task's lease; renewed by heartbeats at a third of this. */
  leaseMs: z.number().int().positive().default(60_000),
  /**
   * After this many attempts a task fails instead of returning to pending: a
   * lost lease, a refused merge (conflict, failing verify), a rejected review
   * and a run that ended without a result each count one.
   */
  maxAttempts: z.number().int().positive().default(3),
  /**
   * Before a finished task merges: `auto` (straight to the merge queue),
   * `human` (waits for `teamd accept` / `teamd reject`), `agent` (a reviewer
   * agent decides, handing over to a person when it cannot). A task's
   * `metadata.review` overrides it.
   */
  review: z.enum(['auto', 'human', 'agent']).default('auto'),
  /** The reviewer under `review: "agent"`: a prompt, or `agent:<name>` for `.claude/agents/<name>.md`. */
  reviewer: z.string().optional(),
  /** Rejections the reviewer agent may make on one task before a person decides. */
  reviewRounds: z.number().int().positive().default(2),
  /** How history is kept small (see docs/FILES.md, "History: rotation and the archive"; `teamd gc` runs it on demand). */
  history: HistoryConfigSchema.default(HISTORY_DEFAULTS),
  /** Keep merged `teamd/<id>` branches (by default they are deleted after the merge). */
  keepBranches: z.boolean().default(false),
  /** An `ask` permission unanswered for this long becomes a deny. */
  approvalTimeoutMs: z.number().int().positive().default(300_000),
  /** A teammate with no heartbeat for this long is shown as stalled. */
  stallAfterMs: z.number().int().positive().default(120_000),
  /** The team's budget in USD: everything spent in this repository (its transcripts); reaching it pauses the team. */
  maxBudgetUsd: z.number().positive().optional(),
  /** The budget of one task's run in USD: reaching it ends the run, and the task fails with the reason. */
  taskBudgetUsd: z.number().positive().optional(),
  /** Price overrides per model, in USD per million tokens. */
  prices: z
    .record(
      z.string(),
      z.strictObject({
        input: z.number().nonnegative(),
        output: z.number().nonnegative(),
        cacheRead: z.number().nonnegative().optional(),
        cacheWrite: z.number().nonnegative().optional(),
      }),
    )
    .default({}),
  notifications: z
    .strictObject({ webhook: z.url().optional(), desktop: z.boolean().default(true) })
    .default({ desktop: true }),
  /** Hooks in Claude Code's settings format, merged with `.claude/settings.json`. */
  hooks: z.record(z.string(), z.unknown()).optional(),
  /** Claude Code plugin folders (their hooks/hooks.json and agents/), besides `.claude/plugins/*`; relative to the repository. */
  plugins: z.array(z.string()).optional(),
  /** Where teammates run unless their own `host` says otherwise (default: worker threads). */
  host: HostConfigSchema.optional(),
  /** The default engine of every teammate (a teammate's `engine` wins). */
  engine: EngineSchema.default('teamd'),
  /** The Claude Code CLI for `engine: "claude-code"` teammates. */
  claudeCode: ClaudeCodeConfigSchema.optional(),
});
export type TeamConfig = z.infer<typeof TeamConfigSchema>;
