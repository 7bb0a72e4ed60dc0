/**
 * The little git the context needs (where the repository is, its branch and
 * status), read with plain `git` and never failing: outside a repository, or
 * without git, the answer is null.
 */
import { execFile } from 'node:child_process';
import { dirname } from 'node:path';
import { safeConfigArgs, safeGitEnv } from '../../git/safe-git.js';
import type { ProjectRoots } from './types.js';

/** stdout of `git args` in `cwd`, or null when it fails. */
export function gitOutput(cwd: string, args: string[], timeoutMs = 10_000): Promise<string | null> {
  return new Promise((resolve) => {
    // The safe -c settings: a teammate's worktree must not make this status run a command (fsmonitor).
    execFile(
      'git',
      [...safeConfigArgs(), ...args],
      { cwd, env: safeGitEnv(), timeout: timeoutMs, maxBuffer: 4 << 20 },
      (error, stdout) => resolve(error ? null : stdout),
    );
  });
}

/** Where a folder's repository is does not change while we run: asked of git once per folder. */
const rootsOf = new Map<string, ProjectRoots>();
const MAX_REMEMBERED = 512;

/** The checkout and the main working tree `cwd` belongs to; both `cwd` outside git. */
export async function projectRoots(cwd: string): Promise<ProjectRoots> {
  const known = rootsOf.get(cwd);
  if (known) return known;
  const found = await askProjectRoots(cwd);
  if (!found) return { project: cwd, state: cwd }; // outside git (for now): ask again next time
  if (rootsOf.size >= MAX_REMEMBERED) rootsOf.delete(rootsOf.keys().next().value!);
  rootsOf.set(cwd, found);
  return found;
}

async function askProjectRoots(cwd: string): Promise<ProjectRoots | null> {
  const out = await gitOutput(cwd, [
    'rev-parse',
    '--path-format=absolute',
    '--show-toplevel',
    '--git-common-dir',
  ]);
  const [top, common] = (out ?? '').trim().split('\n');
  if (!top || !common) return null;
  // the common dir of a normal repository (and of its worktrees) is `<main tree>/.git`
  const state = common.endsWith('/.git') ? dirname(common) : top;
  return { project: top, state };
}

/**
 * Sessions starting close together in one folder (teammates sharing a
 * checkout, one-turn tasks in a row) share one `git status`: a status at most
 * this old is reused, unless a tool of this thread may have changed files
 * since (then a teammate always sees its own last changes). The summary is a
 * snapshot of the session's start anyway, and says so.
 */
const STATUS_REUSE_MS = 5_000;
const recentStatus = new Map<string, { at: number; changes: number; out: Promise<string | null> }>();
let workspaceChanges = 0;

/** Called after a tool that may write files ran (edit, write, bash, …): the next session asks git afresh. */
export function noteWorkspaceChange(): void {
  workspaceChanges++;
}

function statusOutput(cwd: string): Promise<string | null> {
  const now = Date.now();
  const recent = recentStatus.get(cwd);
  if (recent && now - recent.at < STATUS_REUSE_MS && recent.changes === workspaceChanges) return recent.out;
  for (const [dir, r] of recentStatus) if (now - r.at >= STATUS_REUSE_MS) recentStatus.delete(dir);
  const out = gitOutput(cwd, ['status', '--short', '--branch']);
  recentStatus.set(cwd, { at: now, changes: workspaceChanges, out });
  return out;
}

/** `## branch...upstream [ahead 1]` and the short status lines, at most `maxLines` of them; null outside git. */
export async function gitStatusSummary(cwd: string, maxLines = 30): Promise<string | null> {
  const out = await statusOutput(cwd);
  if (out === null) return null;
  const lines = out.trimEnd().split('\n');
  if (lines.length <= maxLines + 1) return lines.join('\n');
  const more = lines.length - 1 - maxLines;
  return [...lines.slice(0, maxLines + 1), `… and ${more} more changed paths`].join('\n');
}
