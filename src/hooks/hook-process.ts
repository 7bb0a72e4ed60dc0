/**
 * Runs one hook command: `sh -c` in its own process group, the event JSON on
 * stdin, a timeout that kills the whole group. Never throws.
 */
import { runProcessGroup } from '../tools/group-run.js';
import type { HookCommand, HookCommandResult } from './types.js';

export const DEFAULT_HOOK_TIMEOUT_S = 60;
const MAX_CAPTURE = 1024 * 1024;

export interface HookSpawn {
  cwd: string;
  env: NodeJS.ProcessEnv;
  stdin: string;
  signal?: AbortSignal;
}

export async function runHookCommand(hook: HookCommand, run: HookSpawn): Promise<HookCommandResult> {
  const out = { stdout: '', stderr: '' };
  const exit = await runProcessGroup({
    file: 'sh',
    args: ['-c', hook.command],
    cwd: run.cwd,
    env: run.env,
    stdin: run.stdin,
    timeoutMs: (hook.timeout ?? DEFAULT_HOOK_TIMEOUT_S) * 1000,
    ...(run.signal === undefined ? {} : { signal: run.signal }),
    onStdout: (chunk) => (out.stdout = capped(out.stdout + chunk)),
    onStderr: (chunk) => (out.stderr = capped(out.stderr + chunk)),
    // A hook may start a notifier in the background on purpose: leave it, but do not wait for it.
    killLeftovers: false,
    drainMs: 500,
    killGraceMs: 500,
  });
  const stderr =
    exit.spawnError === undefined ? out.stderr : `${out.stderr}the hook could not start: ${exit.spawnError}`;
  return {
    command: hook.command,
    exitCode: exit.exitCode,
    stdout: out.stdout,
    stderr,
    timedOut: exit.timedOut,
    durationMs: exit.durationMs,
  };
}

function capped(text: string): string {
  return text.length > MAX_CAPTURE ? text.slice(0, MAX_CAPTURE) : text;
}
