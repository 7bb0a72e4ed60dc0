import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import type { Command } from 'commander';

export interface DirOption {
  dir?: string;
}

/** Adds `--dir <repo>` to a command; every command that touches a repository takes it. */
export function addDirOption(command: Command): Command {
  return command.option('--dir <repo>', 'the repository (default: the git root of the current directory)');
}

/** `--dir` when given, else the git root of the current directory, else the current directory. */
export function resolveRepoDir(options: DirOption = {}, cwd = process.cwd()): string {
  if (options.dir) return resolve(cwd, options.dir);
  try {
    const root = execFileSync('git', ['rev-parse', '--show-toplevel'], {
      cwd,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    return root.trim() || cwd;
  } catch {
    return cwd;
  }
}
