/**
 * The interpreter of a shell-form command hook, by its `shell` field
 * (Claude Code's settings schema, 2.1.332): `bash` (the default) runs the
 * line with the user's `$SHELL` when that is bash, zsh or sh, else with
 * `bash` (or `sh` where there is no bash); `powershell` runs it with
 * `pwsh -NoProfile -NonInteractive -Command`. A missing interpreter is a
 * hook that could not start.
 */
import { accessSync, constants } from 'node:fs';
import { basename, delimiter, isAbsolute, join } from 'node:path';

export type HookShell = 'bash' | 'powershell';

export interface ShellArgv {
  file: string;
  args: string[];
}

const POSIX_SHELLS = new Set(['bash', 'zsh', 'sh']);
const PWSH_ARGS = ['-NoProfile', '-NonInteractive', '-Command'];

export function shellArgv(shell: HookShell | undefined, line: string, env: NodeJS.ProcessEnv): ShellArgv {
  if (shell === 'powershell') return { file: 'pwsh', args: [...PWSH_ARGS, line] };
  return { file: posixShell(env), args: ['-c', line] };
}

/** `$SHELL` when it names bash, zsh or sh by an absolute path that can run; else bash on PATH; else sh. */
export function posixShell(env: NodeJS.ProcessEnv): string {
  const user = env.SHELL;
  if (user !== undefined && isAbsolute(user) && POSIX_SHELLS.has(basename(user)) && runnable(user))
    return user;
  return onPath('bash', env.PATH) ? 'bash' : 'sh';
}

function onPath(name: string, path: string | undefined): boolean {
  return (path ?? '').split(delimiter).some((dir) => dir !== '' && runnable(join(dir, name)));
}

function runnable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
