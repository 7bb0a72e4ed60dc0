/**
 * A hook's `onFailure`, as Claude Code's settings schema (2.1.332) defines
 * it for `command`, `http` and `mcp_tool` hooks: `continue` (the default)
 * reports a failure and lets the action go ahead; `block` makes the failure
 * count as exit code 2, so the action the event guards (a tool call, a
 * permission request, a prompt) is blocked, the failure being the reason.
 * A failure: the hook could not start, timed out, exited with a code other
 * than 0 or 2, or printed JSON (stdout starting with `{`) that does not parse.
 * Ignored for background hooks and on the events where a block would mean
 * "keep working" rather than "stop this action".
 */
import { isBackground } from './handlers.js';
import type { HookCommandResult, HookEventName, HookHandler } from './types.js';

/** Where Claude Code ignores `onFailure: "block"` (a block there would not stop an action but prolong a run). */
const IGNORED_ON = new Set<HookEventName>([
  'SessionStart',
  'Stop',
  'SubagentStop',
  'TaskCompleted',
  'TeammateIdle',
]);

/** Why the result is a failure, or undefined when it is not one. */
export function failureOf(result: HookCommandResult): string | undefined {
  if (result.notStarted === true)
    return `could not start (exit ${result.exitCode ?? '-'}): ${lastLine(result.stderr) || 'command not found'}`;
  if (result.timedOut) return 'timed out';
  if (result.exitCode === null) return undefined; // stopped with its run (an abort): not the hook's failure
  if (result.exitCode !== 0 && result.exitCode !== 2)
    return `exited ${result.exitCode}: ${lastLine(result.stderr)}`.trim();
  if (result.exitCode === 0 && invalidJson(result.stdout)) return 'printed JSON that does not parse';
  return undefined;
}

/** The result turned into a block (exit 2, the failure as the reason) when the hook asks for it and may. */
export function applyOnFailure(
  event: HookEventName,
  hook: HookHandler,
  result: HookCommandResult,
): HookCommandResult {
  if (!blocksOnFailure(event, hook)) return result;
  const why = failureOf(result);
  if (why === undefined) return result;
  const reason = `the ${event} hook \`${result.command}\` ${why}; it is set to block on failure (onFailure: "block")`;
  return { ...result, exitCode: 2, stderr: reason, timedOut: false, blockedOnFailure: true };
}

function blocksOnFailure(event: HookEventName, hook: HookHandler): boolean {
  if (IGNORED_ON.has(event) || isBackground(hook)) return false;
  return 'onFailure' in hook && hook.onFailure === 'block';
}

function invalidJson(stdout: string): boolean {
  const text = stdout.trim();
  if (!text.startsWith('{')) return false;
  try {
    JSON.parse(text);
    return false;
  } catch {
    return true;
  }
}

export const lastLine = (text: string): string => text.trim().split('\n').at(-1)?.slice(0, 300) ?? '';
