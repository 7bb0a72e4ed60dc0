/** The `HookCommandResult` of a handler that is no process (http, prompt, agent, mcp_tool), timed from its start. */
import type { HookCommandResult } from './types.js';

export type ResultOf = (
  exitCode: number | null,
  stdout: string,
  stderr: string,
  extra?: Partial<HookCommandResult>,
) => HookCommandResult;

export function resultOf(command: string): ResultOf {
  const started = Date.now();
  return (exitCode, stdout, stderr, extra = {}) => ({
    command,
    exitCode,
    stdout,
    stderr,
    timedOut: false,
    durationMs: Date.now() - started,
    ...extra,
  });
}
