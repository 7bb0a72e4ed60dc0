import { CONFIG_LIST_ARGS } from './config-list.js';
import { checkDriversCached } from './driver-cache.js';
import { safeConfigArgs, safeGitEnv, withSafeDiffFlags } from './safe-git.js';
import type { Outcome } from './types.js';
import { registeredWorktreeGitDir, teamdWorktreeRepo } from './worktree-pointer.js';

/**
 * Plain `git` through execa rather than simple-git: the merge queue branches
 * on exit codes (`merge-base --is-ancestor`, `diff --quiet`, a refused
 * compare-and-swap in `update-ref`), which simple-git turns into exceptions.
 * execa is imported on the first run: every teammate thread links this file
 * (to commit a task's worktree), but only a task in a worktree runs git.
 */
export interface GitRun {
  exitCode: number;
  stdout: string;
  stderr: string;
}

export interface GitRunOptions {
  /** Extra environment, e.g. author and committer identity. */
  env?: Record<string, string>;
  /** Keep trailing whitespace and newlines (for `-z` output). */
  raw?: boolean;
}

/**
 * Runs `git <args>` in `cwd`; a non-zero exit is data, never an exception.
 * Every run carries the settings of safe-git.ts. In a worktree git has
 * registered under `.worktrees/`, git is handed the git dir teamd made for
 * it, after checking that the worktree's `.git` still points there
 * (worktree-pointer.ts), and refused while the repository's config defines a
 * filter or merge driver (config-list.ts; `git config` itself runs nothing).
 */
export async function runGit(cwd: string, args: string[], options: GitRunOptions = {}): Promise<GitRun> {
  const pinned = pinnedGitDir(cwd);
  if (pinned !== null && !pinned.ok) return refusedRun(pinned.error);
  const pin = pinned === null ? [] : [`--git-dir=${pinned.value.gitDir}`, `--work-tree=${cwd}`];
  if (pinned !== null && args[0] !== 'config') {
    const { gitDir, common } = pinned.value;
    const list = () => execGit(cwd, [...pin, ...CONFIG_LIST_ARGS], { raw: true });
    const drivers = await checkDriversCached(cwd, gitDir, common, list);
    if (!drivers.ok) return refusedRun(drivers.error);
  }
  return execGit(cwd, [...pin, ...args], options);
}

async function execGit(cwd: string, args: string[], options: GitRunOptions): Promise<GitRun> {
  const { execa } = await import('execa');
  const result = await execa('git', [...safeConfigArgs(), ...withSafeDiffFlags(args)], {
    cwd,
    env: safeGitEnv(options.env),
    extendEnv: false,
    reject: false,
    stripFinalNewline: !options.raw,
    stdin: 'ignore',
  });
  if (result.exitCode === undefined) {
    return { exitCode: -1, stdout: '', stderr: result.shortMessage ?? 'git could not run' };
  }
  return { exitCode: result.exitCode, stdout: String(result.stdout), stderr: String(result.stderr) };
}

const refusedRun = (why: string): GitRun => ({ exitCode: -1, stdout: '', stderr: why });

/**
 * The git dir of a registered worktree under `.worktrees/` whose `.git` checks
 * out; an error when it does not; null elsewhere (the commit step checks its
 * worktree is registered at all: commit.ts).
 */
function pinnedGitDir(cwd: string): Outcome<{ gitDir: string; common: string }> | null {
  const repoRoot = teamdWorktreeRepo(cwd);
  return repoRoot === null ? null : registeredWorktreeGitDir(cwd, repoRoot);
}

/** Runs git and returns its stdout, or the error git printed (prefixed with the command). */
export async function git(
  cwd: string,
  args: string[],
  options: GitRunOptions = {},
): Promise<Outcome<string>> {
  const run = await runGit(cwd, args, options);
  if (run.exitCode === 0) return { ok: true, value: run.stdout };
  return { ok: false, error: describeFailure(args, run) };
}

export function describeFailure(args: string[], run: GitRun): string {
  const text = (run.stderr.trim() || run.stdout.trim() || `exit code ${run.exitCode}`).trim();
  return `git ${args.join(' ')}: ${text}`;
}

/** True when `ancestor` is reachable from `descendant` (both commit-ish). */
export async function isAncestor(cwd: string, ancestor: string, descendant: string): Promise<boolean> {
  const run = await runGit(cwd, ['merge-base', '--is-ancestor', ancestor, descendant]);
  return run.exitCode === 0;
}

/** The commit id `rev` names, or null when it names no commit. */
export async function resolveCommit(cwd: string, rev: string): Promise<string | null> {
  const run = await runGit(cwd, ['rev-parse', '--verify', '--quiet', '--end-of-options', `${rev}^{commit}`]);
  return run.exitCode === 0 ? run.stdout.trim() : null;
}

/** The environment that makes a commit authored by `author` and committed by `committer`. */
export function identityEnv(
  author: { name: string; email: string },
  committer: { name: string; email: string },
): Record<string, string> {
  return {
    GIT_AUTHOR_NAME: author.name,
    GIT_AUTHOR_EMAIL: author.email,
    GIT_COMMITTER_NAME: committer.name,
    GIT_COMMITTER_EMAIL: committer.email,
  };
}
