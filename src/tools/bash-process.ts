/**
 * Runs one shell script for the bash tool: its own process group, a timeout,
 * an abort signal, output streamed as it comes, and no process left behind.
 * Background shells (later) keep the returned promise instead of awaiting it.
 */
import { existsSync } from 'node:fs';
import { runProcessGroup, type GroupExit } from './group-run.js';

export interface ShellRun {
  script: string;
  cwd: string;
  env: NodeJS.ProcessEnv;
  timeoutMs: number;
  signal: AbortSignal;
  /** stdout and stderr, interleaved as they arrive. */
  onOutput: (chunk: string) => void;
  /** What the script writes to file descriptor 3 (the bash tool's channel for the final directory). */
  onFd3?: (chunk: string) => void;
}

export type ShellResult = GroupExit;

let shellPath: string | undefined;
export function defaultShell(): string {
  shellPath ??= existsSync('/bin/bash') ? '/bin/bash' : '/bin/sh';
  return shellPath;
}

export function runShell(run: ShellRun): Promise<ShellResult> {
  return runProcessGroup({
    file: defaultShell(),
    args: ['-c', run.script],
    cwd: run.cwd,
    env: run.env,
    timeoutMs: run.timeoutMs,
    signal: run.signal,
    onStdout: run.onOutput,
    onStderr: run.onOutput,
    ...(run.onFd3 === undefined ? {} : { onFd3: run.onFd3 }),
    killLeftovers: true,
    drainMs: 200,
    killGraceMs: 1000,
  });
}
