/**
 * The hook runner: picks the hooks of an event that match, runs them in
 * parallel with the event on stdin, and merges what they say.
 */
import { claudeCodeToolName } from '../tools/claude-names.js';
import { runHookCommand } from './hook-process.js';
import { mergeVerdicts, verdictOf } from './hook-output.js';
import type {
  HookCommand,
  HookEventName,
  HookOutcome,
  HookRunner,
  HookRunnerOptions,
  HookSettings,
} from './types.js';

export function createHookRunner(settings: HookSettings, options: HookRunnerOptions): HookRunner {
  // Copying process.env costs a call into the runtime per variable: only when a hook runs.
  let env: NodeJS.ProcessEnv | undefined;
  return {
    settings,
    run: async (event, payload, opts = {}) => {
      const hooks = matchingHooks(settings, event, opts.matchValue);
      if (hooks.length === 0) return { blocked: false, continue: true, results: [] };
      const hookEnv = (env ??= { ...process.env, ...options.env, CLAUDE_PROJECT_DIR: options.projectDir ?? options.cwd });
      const stdin = JSON.stringify(eventJson(event, payload, options));
      const results = await Promise.all(
        hooks.map((hook) =>
          runHookCommand(hook, {
            cwd: options.cwd,
            env: hookEnv,
            stdin,
            ...(opts.signal ? { signal: opts.signal } : {}),
          }),
        ),
      );
      return mergeVerdicts(
        results.map((r) => verdictOf(event, r)),
        results,
      ) satisfies HookOutcome;
    },
  };
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
    ...payload,
    hook_event_name: event,
  };
  if (typeof json.tool_name === 'string') json.tool_name = claudeCodeToolName(json.tool_name);
  return json;
}

function matchingHooks(
  settings: HookSettings,
  event: HookEventName,
  value: string | undefined,
): HookCommand[] {
  return (settings[event] ?? []).filter((m) => matcherFits(m.matcher, value)).flatMap((m) => m.hooks);
}

/** Claude Code's rule: a plain name list (`Edit|Write`) matches exactly; anything else is a regex search. */
export function matcherFits(matcher: string | undefined, value: string | undefined): boolean {
  if (value === undefined || matcher === undefined || matcher === '' || matcher === '*') return true;
  const names = [value, claudeCodeToolName(value)];
  if (/^[A-Za-z0-9_|]+$/.test(matcher)) return matcher.split('|').some((m) => names.includes(m));
  try {
    const regex = new RegExp(matcher);
    return names.some((n) => regex.test(n));
  } catch {
    return false;
  }
}
