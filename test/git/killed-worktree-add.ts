import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * What `git worktree add -b teamd/<id> .worktrees/<id> <base>` leaves when it
 * is SIGKILLed with its process group after registering the worktree and
 * before its checkout wrote the index (seen by killing a real one): the
 * worktree registered on its new branch, no index, none of its files, and the
 * `locked` file of an add in progress. Real git makes it, deterministically.
 */
export function killedWorktreeAdd(git: (args: string[]) => string, repoRoot: string, id: string, base: string): void {
  git(['worktree', 'add', '--no-checkout', '-b', `teamd/${id}`, join(repoRoot, '.worktrees', id), base]);
  writeFileSync(join(repoRoot, '.git', 'worktrees', id, 'locked'), 'initializing\n');
}
