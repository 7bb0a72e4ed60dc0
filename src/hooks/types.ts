/**
 * Hooks: commands run at points of an agent's life, configured in Claude
 * Code's `settings.json` format and speaking its JSON-on-stdin protocol, so a
 * user's existing hook scripts work unchanged. Claude Code's public hooks
 * reference is the spec; docs/TOOLS.md lists what differs.
 *
 * Protocol, per command:
 * - shell form `/bin/sh -c <command>` (`shell: "powershell"`: pwsh), or exec form (`command` + `args`, no shell),
 *   in the session's cwd (the task's worktree), with `CLAUDE_PROJECT_DIR` (the
 *   repository root) and, for a plugin's hooks, `CLAUDE_PLUGIN_ROOT` set, and
 *   `${CLAUDE_PROJECT_DIR}` / `${CLAUDE_PLUGIN_ROOT}` substituted in the
 *   command and args; the event as JSON on stdin: `session_id`,
 *   `transcript_path`, `cwd`, `permission_mode`, `hook_event_name`, plus the
 *   event's own fields (see `HookPayloads`);
 * - exit 0: continue; stdout, if it is JSON, may decide (`continue`,
 *   `stopReason`, `decision`, `reason`, `systemMessage`, `hookSpecificOutput.*`);
 *   plain stdout is context for the model on UserPromptSubmit and SessionStart;
 * - exit 2: blocks where the event can be blocked (stderr is the reason fed
 *   back to the model); elsewhere stderr is only shown;
 * - any other exit, a timeout: a non-blocking error, recorded;
 * - a command that cannot start (exit 127, spawn error): non-blocking, and
 *   reported (`onFailure`: an event, the log, `teamd status`).
 * Matching hooks of one event run in parallel; identical commands run once;
 * their outcomes are merged (any block blocks; deny beats ask beats allow;
 * contexts are concatenated). `async: true` hooks run in the background and
 * decide nothing.
 */

import type { ModelClient } from '../model/types.js';

/** Every event Claude Code documents that teamd fires (see docs/TOOLS.md for the rest). */
export type HookEventName =
  | 'PreToolUse'
  | 'PermissionRequest'
  | 'PostToolUse'
  | 'PostToolUseFailure'
  | 'Notification'
  | 'UserPromptSubmit'
  | 'Stop'
  | 'SubagentStart'
  | 'SubagentStop'
  | 'PreCompact'
  | 'SessionStart'
  | 'SessionEnd'
  | 'TeammateIdle'
  | 'TaskCreated'
  | 'TaskCompleted';

export interface HookCommand {
  type: 'command';
  /** Shell form: a `sh -c` line. Exec form (with `args`): the program, spawned directly. */
  command: string;
  /** Exec form: the argument vector; no shell is involved. */
  args?: string[];
  /**
   * Shell form's interpreter: `bash` (default; `/bin/sh -c`, as the real
   * CLI runs it on Linux) or `powershell` (`pwsh`). Ignored in exec form.
   */
  shell?: 'bash' | 'powershell';
  /** What a failure does (see on-failure.ts): `continue` (default) or `block` (counts as exit 2). */
  onFailure?: HookOnFailure;
  /** Seconds; default 600 (Claude Code's). On timeout the whole process group is killed. */
  timeout?: number;
  /** Runs in the background: the event does not wait, and the hook decides nothing. */
  async?: boolean;
  /**
   * Runs in the background (implies `async`); when it exits 2, its stderr
   * is delivered to the model on its next turn, waking an idle session
   * (`HookRunnerOptions.onAsyncRewake`).
   */
  asyncRewake?: boolean;
  /** Runs once per runner, then is skipped. */
  once?: boolean;
  /** A permission rule (`Bash(git *)`, `Edit(src/**)`): on tool events the hook runs only for calls it matches. */
  if?: string;
  statusMessage?: string;
  /** Set for a plugin's hooks: `CLAUDE_PLUGIN_ROOT`. */
  pluginRoot?: string;
}

/**
 * An `http` hook: the event JSON is POSTed to `url`; a 2xx answer's body is
 * read like a command's stdout (empty: success; a JSON object: the decision;
 * anything else, a non-2xx status, a redirect, a connection failure or a
 * timeout: a non-blocking error). Header values may use `$VAR`/`${VAR}` only
 * for variables named in `allowedEnvVars` (others become empty strings, as in
 * Claude Code). teamd sends only to loopback hosts unless the settings'
 * `allowedHttpHookUrls` lists the URL (`*` wildcards).
 */
export interface HookHttp {
  type: 'http';
  url: string;
  onFailure?: HookOnFailure;
  headers?: Record<string, string>;
  allowedEnvVars?: string[];
  timeout?: number;
  if?: string;
  statusMessage?: string;
  once?: boolean;
  pluginRoot?: string;
}

/**
 * A `prompt` hook: one model call judges the event. `$ARGUMENTS` in `prompt`
 * is the event JSON (appended when absent); the model answers
 * `{"ok": true}` or `{"ok": false, "reason": "…"}`. Not ok blocks like exit 2
 * (the reason goes to the model, as `[prompt]: reason`); outside Stop-like
 * events it also ends the turn unless `continueOnBlock`. Default timeout 30 s.
 */
export interface HookPrompt {
  type: 'prompt';
  prompt: string;
  /** A model name or alias; default the runner's own (`HookRunnerOptions.model`). */
  model?: string;
  continueOnBlock?: boolean;
  timeout?: number;
  if?: string;
  statusMessage?: string;
  once?: boolean;
  pluginRoot?: string;
}

/**
 * An `agent` hook: like `prompt`, but the judge is a small agent that may
 * read files of the worktree (`Read`, `Glob`) for up to a few turns before it
 * answers through the `StructuredOutput` tool (`{ok, reason}`). Default
 * timeout 60 s; not allowed on PermissionRequest (Claude Code refuses it too).
 */
export interface HookAgent {
  type: 'agent';
  prompt: string;
  model?: string;
  timeout?: number;
  if?: string;
  statusMessage?: string;
  once?: boolean;
  pluginRoot?: string;
}

/**
 * An `mcp_tool` hook: calls `tool` of the configured MCP server `server`
 * with `input` (string values may use `${path}` from the event JSON, e.g.
 * `${tool_input.file_path}`); the tool's text is read like a command's stdout.
 */
export interface HookMcpTool {
  type: 'mcp_tool';
  server: string;
  tool: string;
  input?: Record<string, unknown>;
  /** As for commands; any value other than `continue` reads as `block` (Claude Code's rule for this type). */
  onFailure?: HookOnFailure;
  timeout?: number;
  if?: string;
  statusMessage?: string;
  once?: boolean;
  pluginRoot?: string;
}

/**
 * A failed hook (could not start, timed out, exited other than 0 or 2,
 * printed JSON that does not parse): `continue` reports it and lets the
 * action go ahead; `block` counts it as exit 2. Ignored for background hooks
 * and on SessionStart, Stop, SubagentStop, TaskCompleted, TeammateIdle.
 */
export type HookOnFailure = 'continue' | 'block';

/** Every handler type Claude Code documents. */
export type HookHandler = HookCommand | HookHttp | HookPrompt | HookAgent | HookMcpTool;

export interface HookMatcher {
  /**
   * Tool events: which tools (`Bash`, `Edit|Write` match those names exactly;
   * anything else is a regex searched in the name, `mcp__memory__.*`).
   * SessionStart: the source; SessionEnd: the reason; Notification: the
   * notification type; PreCompact: the trigger; SubagentStart/SubagentStop:
   * the agent type. Empty, `*` or absent match all. Our own lowercase tool
   * names match too.
   */
  matcher?: string;
  hooks: HookHandler[];
}

export type HookSettings = Partial<Record<HookEventName, HookMatcher[]>>;

export interface HookCommandResult {
  command: string;
  /** Null when the process was killed (timeout, abort) or could not start. */
  exitCode: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  durationMs: number;
  /** The command could not start (spawn error, or the shell's exit 127: not found). */
  notStarted?: boolean;
  /** A failure turned into exit 2 by `onFailure: "block"` (stderr says why). */
  blockedOnFailure?: boolean;
  /** A prompt/agent hook's "not ok" that also ends the turn (Claude Code's preventContinuation). */
  stopsTurn?: boolean;
}

export interface HookOutcome {
  /** Exit 2, or a blocking JSON decision, on an event that can be blocked: `reason` goes back to the model. */
  blocked: boolean;
  reason?: string;
  /** PreToolUse: allow/deny/ask; PermissionRequest: allow/deny. */
  permissionDecision?: 'allow' | 'deny' | 'ask';
  /** PreToolUse / PermissionRequest may rewrite the tool input (Claude Code's shape). */
  updatedInput?: unknown;
  additionalContext?: string;
  /** false when a hook asked to stop the whole run (`"continue": false`) */
  continue: boolean;
  stopReason?: string;
  /** `systemMessage`: shown to the user (an event), not to the model. */
  systemMessage?: string;
  results: HookCommandResult[];
}

/** A hook that could not start or failed, as reported to `onFailure`. */
export interface HookFailure {
  event: HookEventName;
  command: string;
  exitCode: number | null;
  message: string;
}

/** What a tool event's `if` rule is tested against. */
export interface HookToolCall {
  /** Claude Code's tool name. */
  toolName: string;
  toolInput: unknown;
}

export interface HookRunOptions {
  /** What the matcher is tested against (tool name, source, reason, agent type, …). */
  matchValue?: string;
  signal?: AbortSignal;
  /** For tool events: whether an `if` rule matches this call (the agent knows the rule syntax). */
  ifFits?: (rule: string) => boolean;
}

export interface HookRunner {
  /**
   * Runs every hook of `event` whose matcher fits `matchValue`. Never throws:
   * failures are in `results`. With no hook configured it resolves at once to
   * `{ blocked: false, continue: true, results: [] }`.
   */
  run(event: HookEventName, payload: Record<string, unknown>, opts?: HookRunOptions): Promise<HookOutcome>;
  /** True when some hook is configured for `event`. */
  has(event: HookEventName): boolean;
  /**
   * Listens for what background hooks leave for the model (see
   * `HookRunnerOptions.onAsyncOutput`); the agent runtime queues it for its
   * next turn. Returns the unsubscribe function.
   */
  onAsyncOutput?(listener: (output: HookAsyncOutput) => void): () => void;
  /**
   * The MCP connections `mcp_tool` hooks call, once the session has them
   * (the agent runtime gives its own); `HookRunnerOptions.callMcpTool` wins.
   */
  useMcpTools?(caller: (call: HookMcpCall) => Promise<HookMcpAnswer>): void;
  readonly settings: HookSettings;
}

export interface HookRunnerOptions {
  /** Where hooks run and what `cwd` says in the payload (the task's worktree). */
  cwd: string;
  /** `CLAUDE_PROJECT_DIR`: the repository root; defaults to `cwd`. */
  projectDir?: string;
  /** Extra environment on top of process.env. */
  env?: Record<string, string>;
  sessionId?: string;
  transcriptPath?: string;
  /** `permission_mode` in every payload; default `default`. */
  permissionMode?: string;
  /** A hook that could not start, or exited with an error: report it (never throws into the run). */
  onFailure?: (failure: HookFailure) => void;
  /**
   * The model of `prompt` and `agent` hooks, by the hook's `model` field
   * (undefined: the default). Without it such hooks fail as not started;
   * a promise that rejects is a non-blocking error naming the model.
   */
  model?: (name: string | undefined) => ModelClient | Promise<ModelClient> | undefined;
  /** Calls an MCP server's tool for `mcp_tool` hooks; without it such hooks fail as not started. */
  callMcpTool?: (call: HookMcpCall) => Promise<HookMcpAnswer>;
  /** URL patterns (`*` wildcards) `http` hooks may reach besides loopback hosts (`allowedHttpHookUrls`). */
  allowedHttpHookUrls?: string[];
  /**
   * Output of background hooks for the model's next turn: an `asyncRewake`
   * hook that exited 2 (its stderr), an `async` hook's `additionalContext`
   * or `systemMessage` (Claude Code delivers these on the next turn).
   */
  onAsyncOutput?: (output: HookAsyncOutput) => void;
  /**
   * An `asyncRewake` result (exit 2) before the session's listeners get it:
   * return true when taken — a teammate whose session has ended wakes for
   * it instead (src/teammate/hook-wake.ts) — so it is not also queued in a
   * conversation that will not run again.
   */
  onAsyncRewake?: (output: HookAsyncOutput) => boolean;
}

export interface HookMcpCall {
  server: string;
  tool: string;
  input: Record<string, unknown>;
  signal: AbortSignal;
}

/** An MCP tool's answer to a hook: its text content joined, and whether it was an error. */
export interface HookMcpAnswer {
  text: string;
  isError: boolean;
}

/** What a background hook left for the model. */
export interface HookAsyncOutput {
  event: HookEventName;
  command: string;
  /** Text for the model (a system reminder on its next turn). */
  text: string;
  /** asyncRewake exit 2: wake an idle session for it. */
  rewake: boolean;
}
