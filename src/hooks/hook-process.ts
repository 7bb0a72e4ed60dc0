/**
 * Runs one hook command: shell form (the `shell` field's interpreter, see
 * hook-shell.ts) or exec form (`command` + `args`, no shell), in its own process group, the event JSON on stdin, a
 * timeout that kills the whole group. Never throws.
 */
import { runProcessGroup } from '../tools/group-run.js';
import { shellArgv } from './hook-shell.js';
import type { HookCommand, HookCommandResult } from './types.js';

/** Claude Code's default for command hooks. */
export const DEFAULT_HOOK_TIMEOUT_S = 600;
const MAX_CAPTURE = 1024 * 1024;
/** What a shell answers when the program it was told to run is not there (or cannot be executed: 126). */
const NOT_FOUND_EXITS = new Set([126, 127]);

export interface HookSpawn {
  cwd: string;
  env: NodeJS.ProcessEnv;
  stdin: string;
  signal?: AbortSignal;
}

/**
 * `${CLAUDE_PROJECT_DIR}`, `$CLAUDE_PLUGIN_ROOT` and the like replaced by
 * their values: exec form has no shell to expand them.
 */
export function substitute(text: string, env: NodeJS.ProcessEnv): string {
  const pattern =
    /\$\{(CLAUDE_PROJECT_DIR|CLAUDE_PLUGIN_ROOT)\}|\$(CLAUDE_PROJECT_DIR|CLAUDE_PLUGIN_ROOT)\b/g;
  return text.replace(pattern, (whole, a?: string, b?: string) => env[(a ?? b)!] ?? whole);
}

/** Exec form spawns `command` with `args`; shell form hands the line to the shell, which expands the variables itself (safe with any path). */
function argv(hook: HookCommand, env: NodeJS.ProcessEnv): { file: string; args: string[] } {
  if (hook.args === undefined) return shellArgv(hook.shell, hook.command);
  return { file: substitute(hook.command, env), args: hook.args.map((a) => substitute(a, env)) };
}

export async function runHookCommand(hook: HookCommand, run: HookSpawn): Promise<HookCommandResult> {
  const out = { stdout: '', stderr: '' };
  const { file, args } = argv(hook, run.env);
  const exit = await runProcessGroup({
    file,
    args,
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
  const spawned = exit.spawnError === undefined;
  const stderr = spawned ? out.stderr : `${out.stderr}the hook could not start: ${exit.spawnError}`;
  const notStarted = !spawned || (hook.args === undefined && NOT_FOUND_EXITS.has(exit.exitCode ?? -1));
  return {
    command: hook.args === undefined ? hook.command : [hook.command, ...hook.args].join(' '),
    exitCode: spawned ? exit.exitCode : 127,
    stdout: out.stdout,
    stderr,
    timedOut: exit.timedOut,
    durationMs: exit.durationMs,
    ...(notStarted ? { notStarted: true } : {}),
  };
}

function capped(text: string): string {
  return text.length > MAX_CAPTURE ? text.slice(0, MAX_CAPTURE) : text;
}
