import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { fail } from './cli-error.js';

export interface DirOption {
  dir?: string;
}

/** Adds `--dir <repo>` to a command; every command that touches a repository takes it. */
export function addDirOption(command: Command): Command {
  return command.option('--dir <repo>', 'the repository (default: the git root of the current directory)');
}

/**
 * `--dir` when given (taken as it is), else the git root of the current
 * directory. Outside a git repository there is no default: the command stops
 * here, before it writes anything (no stray `.tasks/` in a home folder).
 */
export function resolveRepoDir(options: DirOption = {}, cwd = process.cwd()): string {
  if (options.dir) return resolve(cwd, options.dir);
  const root = gitRoot(cwd);
  return root ?? fail(`not inside a git repository (${cwd}): run teamd in one, or pass --dir <repo>`);
}

function gitRoot(cwd: string): string | undefined {
  try {
    const root = execFileSync('git', ['rev-parse', '--show-toplevel'], {
      cwd,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    return root.trim() || undefined;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT')
      fail('git is not installed (teamd finds the repository with `git rev-parse`); pass --dir <repo>');
    return undefined;
  }
}
