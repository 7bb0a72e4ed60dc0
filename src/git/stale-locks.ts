/**
 * A git process killed with its group (a supervisor's stop, the OOM killer)
 * leaves its lock files behind: `.git/worktrees/<id>/index.lock` makes every
 * later `git add` in that worktree fail ("index.lock: File exists"), and a
 * `locked` file left by a killed `git worktree add` keeps the worktree from
 * being pruned or made again. At the lead's start and before a worktree is
 * reused, teamd removes git's own locks of the worktrees it owns (the folders
 * under `.worktrees/`) when no live git process is working there. The main
 * checkout's own locks (`.git/index.lock`) are never touched: teamd does not
 * use that index, a person's git may.
 */
import { readdirSync, statSync } from 'node:fs';
import { readTeamFileSync } from '../store/team-file.js';
import { rm } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { canSeeProcesses, gitProcessesIn } from './git-processes.js';
import { WORKTREES_DIR } from './types.js';
import { commonDirOf } from './worktree-pointer.js';

/** Without /proc, a lock counts as stale only once this old. */
export const STALE_LOCK_AGE_MS = 10 * 60_000;

interface OwnedWorktree {
  path: string;
  admin: string;
}

/**
 * Removes the stale locks of teamd's worktrees in the repository at
 * `repoRoot` (only of the one at `worktreePath` when given), returning the
 * files removed.
 */
export async function clearStaleLocks(repoRoot: string, worktreePath?: string): Promise<string[]> {
  let owned: OwnedWorktree[];
  let common: string;
  try {
    common = commonDirOf(repoRoot);
    owned = ownedWorktrees(repoRoot, common);
  } catch {
    return []; // no worktrees yet, or not a repository: nothing of ours is locked
  }
  const removed: string[] = [];
  for (const wt of owned) {
    if (worktreePath !== undefined && resolve(wt.path) !== resolve(worktreePath)) continue;
    const locks = lockFiles(wt, common);
    if (locks.length === 0 || !(await nobodyWorksIn(wt, locks))) continue;
    for (const lock of locks) {
      // One that cannot be removed is left to fail the git call that meets it, with git's own message.
      if (
        await rm(lock, { force: true }).then(
          () => true,
          () => false,
        )
      )
        removed.push(lock);
    }
  }
  return removed;
}

/** The admin dirs whose worktree is a folder directly under `<repoRoot>/.worktrees/`. */
function ownedWorktrees(repoRoot: string, common: string): OwnedWorktree[] {
  const base = join(common, 'worktrees');
  const root = join(repoRoot, WORKTREES_DIR);
  const owned: OwnedWorktree[] = [];
  for (const name of readdirSync(base)) {
    const admin = join(base, name);
    const dotGit = readOr(join(admin, 'gitdir')).trim();
    if (dotGit === '') continue;
    const path = dirname(resolve(admin, dotGit));
    if (dirname(path) === root) owned.push({ path, admin });
  }
  return owned;
}

/** git's lock files of one worktree: in its admin dir, its refs there, its branch's ref, and `locked`. */
function lockFiles(wt: OwnedWorktree, common: string): string[] {
  const found = [...locksUnder(wt.admin, 0)];
  if (exists(join(wt.admin, 'locked'))) found.push(join(wt.admin, 'locked'));
  const head = /^ref: (refs\/heads\/teamd\/.+)$/.exec(readOr(join(wt.admin, 'HEAD')).trim());
  if (head?.[1] && exists(join(common, `${head[1]}.lock`))) found.push(join(common, `${head[1]}.lock`));
  return found;
}

function locksUnder(dir: string, depth: number): string[] {
  const found: string[] = [];
  for (const entry of readdirSafe(dir)) {
    const full = join(dir, entry.name);
    if (entry.isFile() && entry.name.endsWith('.lock')) found.push(full);
    else if (entry.isDirectory() && (depth > 0 || entry.name === 'refs') && depth < 8)
      found.push(...locksUnder(full, depth + 1));
  }
  return found;
}

/** No live git process works in the worktree; without /proc, every lock is old. */
async function nobodyWorksIn(wt: OwnedWorktree, locks: string[]): Promise<boolean> {
  if (canSeeProcesses()) return (await gitProcessesIn([wt.path, wt.admin])).length === 0;
  const now = Date.now();
  return locks.every((lock) => now - mtimeOf(lock) >= STALE_LOCK_AGE_MS);
}

function readOr(file: string): string {
  // Regular files only, small (a FIFO or a device link in the admin dir must not hang or fill the check).
  const read = readTeamFileSync(file, file, 64 * 1024);
  return read.kind === 'text' ? read.text : '';
}

function readdirSafe(dir: string) {
  try {
    return readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
}

function exists(file: string): boolean {
  return mtimeOf(file) !== 0;
}

function mtimeOf(file: string): number {
  try {
    return statSync(file).mtimeMs;
  } catch {
    return 0;
  }
}
