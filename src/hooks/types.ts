/**
 * Hooks: commands run at points of an agent's life, configured in Claude
 * Code's `settings.json` format and speaking its JSON-on-stdin protocol, so a
 * user's existing hook scripts work unchanged. Claude Code's public hooks
 * reference is the spec; docs/TOOLS.md lists what differs.
 *
 * Protocol, per command:
 * - shell form `sh -c <command>`, or exec form (`command` + `args`, no shell),
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
  /** Seconds; default 600 (Claude Code's). On timeout the whole process group is killed. */
  timeout?: number;
  /** Runs in the background: the event does not wait, and the hook decides nothing. */
  async?: boolean;
  /** A permission rule (`Bash(git *)`, `Edit(src/**)`): on tool events the hook runs only for calls it matches. */
  if?: string;
  statusMessage?: string;
  /** Set for a plugin's hooks: `CLAUDE_PLUGIN_ROOT`. */
  pluginRoot?: string;
}

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
  hooks: HookCommand[];
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
}
