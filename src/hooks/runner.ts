/**
 * The hook runner: picks the hooks of an event that match, runs them in
 * parallel with the event on stdin (or POSTed, or judged by a model: see
 * handlers.ts), and merges what they say. Async hooks start and are left to
 * finish on their own, their output kept for the model's next turn
 * (async-output.ts); a hook that cannot start is reported through `onFailure`.
 */
import { claudeCodeToolName, toolNameVariants } from '../tools/claude-names.js';
import { deliverAsync } from './async-output.js';
import { handlerKey, isBackground, runHandler } from './handlers.js';
import { mergeVerdicts, verdictOf } from './hook-output.js';
import { applyOnFailure, failureOf } from './on-failure.js';
import type {
  HookAsyncOutput,
  HookHandler,
  HookCommandResult,
  HookEventName,
  HookOutcome,
  HookRunner,
  HookRunnerOptions,
  HookRunOptions,
  HookSettings,
} from './types.js';

/** Events whose hooks may carry an `if` rule (tested against the call). */
const TOOL_EVENTS = new Set<HookEventName>([
  'PreToolUse',
  'PostToolUse',
  'PostToolUseFailure',
  'PermissionRequest',
]);
const NONE: HookOutcome = { blocked: false, continue: true, results: [] };

export function createHookRunner(settings: HookSettings, options: HookRunnerOptions): HookRunner {
  // Copying process.env costs a call into the runtime per variable: only when a hook runs.
  let env: NodeJS.ProcessEnv | undefined;
  const baseEnv = () =>
    (env ??= { ...process.env, ...options.env, CLAUDE_PROJECT_DIR: options.projectDir ?? options.cwd });
  const ran = new Set<HookHandler>();
  const listeners = new Set<(output: HookAsyncOutput) => void>();
  let mcp: HookRunnerOptions['callMcpTool'];
  const delivery: HookRunnerOptions = {
    ...options,
    callMcpTool: (call) => {
      const caller = options.callMcpTool ?? mcp;
      if (caller === undefined) return Promise.reject(new Error('no MCP servers are connected here'));
      return caller(call);
    },
    onAsyncOutput: (output) => {
      options.onAsyncOutput?.(output);
      if (output.rewake && takenForWake(options, output)) return;
      for (const listener of listeners) listener(output);
    },
  };
  return {
    settings,
    has: (event) => (settings[event]?.length ?? 0) > 0,
    useMcpTools: (caller) => {
      mcp = caller;
    },
    onAsyncOutput: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    run: async (event, payload, opts = {}) => {
      const hooks = selectHooks(settings, event, opts).filter((h) => !(h.once === true && ran.has(h)));
      if (hooks.length === 0) return { ...NONE, results: [] };
      for (const hook of hooks) if (hook.once === true) ran.add(hook);
      const json = eventJson(event, payload, options);
      const stdin = JSON.stringify(json);
      const spawn = (hook: HookHandler) =>
        runHandler(hook, {
          event,
          json,
          stdin,
          env: hook.pluginRoot === undefined ? baseEnv() : { ...baseEnv(), CLAUDE_PLUGIN_ROOT: hook.pluginRoot },
          options: delivery,
          ...(opts.signal && !isBackground(hook) ? { signal: opts.signal } : {}),
        }).then((r) => applyOnFailure(event, hook, report(event, r, options)));
      for (const hook of hooks.filter(isBackground))
        void spawn(hook).then((r) => deliverAsync(event, hook, r, delivery));
      const results = await Promise.all(hooks.filter((h) => !isBackground(h)).map(spawn));
      return mergeVerdicts(
        results.map((r) => verdictOf(event, r)),
        results,
      ) satisfies HookOutcome;
    },
  };
}

function takenForWake(options: HookRunnerOptions, output: HookAsyncOutput): boolean {
  try {
    return options.onAsyncRewake?.(output) === true;
  } catch {
    return false; // a receiver's bug: the session's listeners still get it
  }
}

/** A hook that could not start, or timed out, or exited with an error other than 2, goes to `onFailure`. */
function report(
  event: HookEventName,
  result: HookCommandResult,
  options: HookRunnerOptions,
): HookCommandResult {
  const why = failureOf(result);
  if (why === undefined || options.onFailure === undefined) return result;
  try {
    options.onFailure({
      event,
      command: result.command,
      exitCode: result.exitCode,
      message: `${event} hook \`${result.command}\` ${why}`.trim(),
    });
  } catch {
    // a reporter's bug must not end the run
  }
  return result;
}

/** The JSON on a hook's stdin: the common fields, then the event's own. */
function eventJson(
  event: HookEventName,
  payload: Record<string, unknown>,
  options: HookRunnerOptions,
): Record<string, unknown> {
  const json: Record<string, unknown> = {
    session_id: options.sessionId ?? '',
    transcript_path: options.transcriptPath ?? '',
    cwd: options.cwd,
    permission_mode: options.permissionMode ?? 'default',
    ...payload,
    hook_event_name: event,
  };
  if (typeof json.tool_name === 'string') json.tool_name = claudeCodeToolName(json.tool_name);
  // Claude Code (2.1.332, test/interop) sends no permission_mode with the session's start and end.
  if (event === 'SessionStart' || event === 'SessionEnd') delete json.permission_mode;
  return json;
}

/** The matching hooks, each distinct handler once (Claude Code deduplicates identical handlers). */
function selectHooks(settings: HookSettings, event: HookEventName, opts: HookRunOptions): HookHandler[] {
  const seen = new Set<string>();
  return (settings[event] ?? [])
    .filter((m) => matcherFits(m.matcher, opts.matchValue))
    .flatMap((m) => m.hooks)
    .filter((h) => ifFits(h, event, opts))
    .filter((h) => {
      const key = handlerKey(h);
      return seen.has(key) ? false : (seen.add(key), true);
    });
}

/** An `if` rule runs the hook only for tool calls it matches; on other events such a hook never runs. */
function ifFits(hook: HookHandler, event: HookEventName, opts: HookRunOptions): boolean {
  if (hook.if === undefined || hook.if.trim() === '') return true;
  if (!TOOL_EVENTS.has(event) || opts.ifFits === undefined) return false;
  try {
    return opts.ifFits(hook.if);
  } catch {
    return false;
  }
}

/** Claude Code's rule: a plain name list (`Edit|Write`) matches exactly; anything else is a regex search. */
export function matcherFits(matcher: string | undefined, value: string | undefined): boolean {
  if (value === undefined || matcher === undefined || matcher === '' || matcher === '*') return true;
  const names = toolNameVariants(value);
  if (/^[A-Za-z0-9_|]+$/.test(matcher)) return matcher.split('|').some((m) => names.includes(m));
  try {
    const regex = new RegExp(matcher);
    return names.some((n) => regex.test(n));
  } catch {
    return false;
  }
}
