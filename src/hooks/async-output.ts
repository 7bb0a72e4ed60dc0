/**
 * What a background hook leaves for the model, as Claude Code delivers it on
 * the next turn: an `async` hook's `additionalContext` and `systemMessage`
 * (exit 0, JSON stdout), and an `asyncRewake` hook's exit 2 (its stderr, or
 * stdout when stderr is empty), which also wakes an idle session. Anything
 * else a background hook says is dropped: it decides nothing.
 */
import { verdictOf } from './hook-output.js';
import type { HookAsyncOutput, HookCommandResult, HookEventName, HookHandler, HookRunnerOptions } from './types.js';

export function asyncOutputText(
  event: HookEventName,
  hook: HookHandler,
  result: HookCommandResult,
): { text: string; rewake: boolean } | undefined {
  const rewake = hook.type === 'command' && hook.asyncRewake === true;
  if (rewake && result.exitCode === 2) {
    const said = result.stderr.trim() || result.stdout.trim();
    return { text: said || `the hook \`${result.command}\` exited 2`, rewake: true };
  }
  if (result.exitCode !== 0) return undefined;
  const verdict = verdictOf(event, result);
  const parts = [verdict.additionalContext, verdict.systemMessage].filter((p): p is string => !!p?.trim());
  return parts.length === 0 ? undefined : { text: parts.join('\n\n'), rewake: false };
}

/** How the output reaches the model: a system reminder naming the hook. */
export function asyncReminder(output: HookAsyncOutput): string {
  const what = output.rewake ? 'reported a blocking error' : 'added context';
  return `<system-reminder>\nThe background ${output.event} hook \`${output.command}\` ${what}:\n${output.text}\n</system-reminder>`;
}

export function deliverAsync(
  event: HookEventName,
  hook: HookHandler,
  result: HookCommandResult,
  options: HookRunnerOptions,
): void {
  if (options.onAsyncOutput === undefined) return;
  const output = asyncOutputText(event, hook, result);
  if (output === undefined) return;
  try {
    options.onAsyncOutput({ event, command: result.command, ...output });
  } catch {
    // a receiver's bug must not reach the hook's promise chain
  }
}
