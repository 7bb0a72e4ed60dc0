/**
 * The agent's side of hooks: the payload fields it knows (session, mode,
 * Claude Code's tool shapes), the `if` rule test, and the notices a hook
 * leaves for the user (a hook that could not start, a `systemMessage`).
 */
import { claudeToolInput, claudeToolResponse } from '../hooks/tool-shapes.js';
import type { HookEventName, HookOutcome, HookRunner, HookRunOptions } from '../hooks/types.js';
import type { AnyTool } from '../tools/types.js';
import { parseRule } from './permissions/rules.js';
import { ruleHits } from './permissions/rule-match.js';
import { viewCall } from './permissions/tool-call.js';

/** Where a call happens: the agent's root and its shell's cwd. */
export interface CallPlace {
  root: string;
  cwd: string;
  /** The added directories (`--add-dir`): inside the agent's reach too. */
  extraRoots?: readonly string[];
}

/** Whether a permission rule (`Bash(git *)`) matches this call: an `if` test for the runner. */
export function ifRuleTest(tool: AnyTool, input: unknown, place: CallPlace): (rule: string) => boolean {
  return (text) => {
    const rule = parseRule(text);
    return rule.ok && ruleHits(rule.value, viewCall(tool, input, place));
  };
}

/** The fields of a tool event: Claude Code's name is set by the runner; the input gets absolute paths. */
export function toolPayload(
  tool: AnyTool,
  input: unknown,
  toolUseId: string,
  place: CallPlace,
): Record<string, unknown> {
  return { tool_name: tool.name, tool_input: claudeToolInput(input, place.cwd), tool_use_id: toolUseId };
}

export function toolResponse(
  tool: AnyTool,
  input: unknown,
  content: string,
  isError: boolean,
  place: CallPlace,
): unknown {
  const shaped = claudeToolInput(input, place.cwd);
  const record = typeof shaped === 'object' && shaped !== null ? (shaped as Record<string, unknown>) : {};
  return claudeToolResponse({ tool: tool.name, input: record, content, isError });
}

/** What hooks left for the user: each failed start and each `systemMessage`, as one line. */
export function hookNotices(event: HookEventName, outcome: HookOutcome): string[] {
  const notices = outcome.results
    .filter((r) => r.notStarted)
    .map(
      (r) =>
        `${event} hook \`${r.command}\` could not start (exit ${r.exitCode ?? '-'}): ${r.stderr.trim().split('\n').at(-1) ?? ''}`,
    );
  if (outcome.systemMessage !== undefined) notices.push(`${event} hook: ${outcome.systemMessage}`);
  return notices;
}

/** A runner whose every outcome's notices are kept in `sink` (the loop turns them into `system/hook` events). */
export function noticingRunner(runner: HookRunner, sink: string[]): HookRunner {
  return {
    settings: runner.settings,
    has: (event) => runner.has(event),
    run: async (event, payload, opts?: HookRunOptions) => {
      const outcome = await runner.run(event, payload, opts);
      sink.push(...hookNotices(event, outcome));
      return outcome;
    },
  };
}

/** Blocking Stop hooks may send the agent back this many times per run (Claude Code: 8, or `CLAUDE_CODE_STOP_HOOK_BLOCK_CAP`). */
export function stopHookBlockCap(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.CLAUDE_CODE_STOP_HOOK_BLOCK_CAP;
  const n = raw === undefined ? NaN : Number(raw);
  return Number.isInteger(n) && n >= 0 ? n : 8;
}
