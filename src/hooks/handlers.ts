/**
 * One hook handler of any type, run to a `HookCommandResult` (the shape a
 * command's run has), so the verdict and the merge rules stay one for all.
 */
import { runHookCommand } from './hook-process.js';
import { runHttpHook } from './http-hook.js';
import { runJudgeHook } from './judge-hook.js';
import { runMcpToolHook } from './mcp-tool-hook.js';
import type { HookCommandResult, HookEventName, HookHandler, HookRunnerOptions } from './types.js';

export interface HandlerRun {
  event: HookEventName;
  /** The event JSON, as an object and as the text sent. */
  json: Record<string, unknown>;
  stdin: string;
  env: NodeJS.ProcessEnv;
  signal?: AbortSignal;
  options: HookRunnerOptions;
}

export function runHandler(hook: HookHandler, run: HandlerRun): Promise<HookCommandResult> {
  const signal = run.signal === undefined ? {} : { signal: run.signal };
  switch (hook.type) {
    case 'command':
      return runHookCommand(hook, { cwd: run.options.cwd, env: run.env, stdin: run.stdin, ...signal });
    case 'http':
      return runHttpHook(hook, {
        stdin: run.stdin,
        env: run.env,
        ...signal,
        ...(run.options.allowedHttpHookUrls ? { allowedUrls: run.options.allowedHttpHookUrls } : {}),
      });
    case 'prompt':
    case 'agent':
      return runJudgeHook(hook, {
        event: run.event,
        stdin: run.stdin,
        cwd: run.options.cwd,
        model: run.options.model?.(hook.model),
        ...signal,
      });
    case 'mcp_tool':
      return runMcpToolHook(hook, run.json, run.options.callMcpTool, run.signal);
  }
}

/** What identifies a handler for Claude Code's deduplication of identical hooks. */
export function handlerKey(hook: HookHandler): string {
  const { statusMessage: _s, timeout: _t, once: _o, ...rest } = hook;
  return JSON.stringify(Object.entries(rest).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** Runs in the background: the event does not wait for it. */
export const isBackground = (hook: HookHandler): boolean =>
  hook.type === 'command' && (hook.async === true || hook.asyncRewake === true);
