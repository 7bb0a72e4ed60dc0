/**
 * Hooks: shell commands run at points of an agent's life, configured in Claude
 * Code's `settings.json` format and speaking its JSON-on-stdin protocol, so a
 * user's existing hook scripts work unchanged.
 *
 * Protocol, per command:
 * - runs as `sh -c <command>` in the session's cwd, with `CLAUDE_PROJECT_DIR` set
 *   and the event as JSON on stdin: `session_id`, `transcript_path`, `cwd`,
 *   `hook_event_name`, plus the event's fields (`tool_name`, `tool_input`,
 *   `tool_response`, `prompt`, `stop_hook_active`, …);
 * - exit 0: continue; stdout, if it is JSON, may decide (`decision`,
 *   `reason`, `continue`, `stopReason`, `hookSpecificOutput.*`);
 * - exit 2: block; stderr is the reason fed back to the model;
 * - any other exit, a spawn failure or a timeout: a non-blocking error, recorded.
 * Matching hooks of one event run in parallel; their outcomes are merged
 * (any block blocks; deny beats ask beats allow; contexts are concatenated).
 * The payload's `tool_name` is sent as Claude Code's name (`bash` → `Bash`), so
 * scripts that test `tool_name == "Bash"` keep working; tool inputs already
 * use Claude Code's field names (`command`, `file_path`, `old_string`, …).
 */

export type HookEventName =
  | 'PreToolUse'
  | 'PostToolUse'
  | 'UserPromptSubmit'
  | 'Stop'
  | 'SubagentStart'
  | 'SubagentStop'
  | 'SessionStart'
  | 'TeammateIdle'
  | 'TaskCompleted';

export interface HookCommand {
  type: 'command';
  command: string;
  /** Seconds; default 60. On timeout the whole process group is killed. */
  timeout?: number;
}

export interface HookMatcher {
  /**
   * For PreToolUse/PostToolUse: which tools. `Bash` or `Edit|Write` match those names exactly; anything
   * else is a regex searched in the tool name (`mcp__github__.*`). Empty, `*` or absent match all.
   * Names are Claude Code's (`Bash`, `Edit`, …); our own lowercase names match too.
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
}

export interface HookOutcome {
  /** exit code 2, or JSON decision "block"/"deny": the action is blocked and `reason` goes back to the model */
  blocked: boolean;
  reason?: string;
  /** PreToolUse JSON may allow/deny/ask and may rewrite the input */
  permissionDecision?: 'allow' | 'deny' | 'ask';
  updatedInput?: unknown;
  additionalContext?: string;
  /** false when a hook asked to stop the whole run ("continue": false) */
  continue: boolean;
  stopReason?: string;
  results: HookCommandResult[];
}

export interface HookRunner {
  /**
   * Runs every hook of `event` whose matcher fits `matchValue` (the tool name
   * for tool events). Never throws: failures are in `results`. With no hook
   * configured it resolves at once to `{ blocked: false, continue: true, results: [] }`.
   */
  run(
    event: HookEventName,
    payload: Record<string, unknown>,
    opts?: { matchValue?: string; signal?: AbortSignal },
  ): Promise<HookOutcome>;
  readonly settings: HookSettings;
}

export interface HookRunnerOptions {
  /** Where hooks run and what `cwd` says in the payload. */
  cwd: string;
  /** `CLAUDE_PROJECT_DIR`; defaults to `cwd`. */
  projectDir?: string;
  /** Extra environment on top of process.env. */
  env?: Record<string, string>;
  sessionId?: string;
  transcriptPath?: string;
}
