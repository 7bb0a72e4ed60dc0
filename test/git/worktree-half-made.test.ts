/**
 * A `git worktree add` killed with its process group (a supervisor's stop,
 * the OOM killer) after it registered the worktree and before its checkout
 * wrote the index leaves a worktree on its branch with none of its files.
 * Adopted as it was, the task's commit recorded every missing file as deleted.
 * The state is made exactly as the kill leaves it (killed-worktree-add.ts).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { commitWorktree, teammateEmail } from '../../src/git/commit.js';
import { Worktrees } from '../../src/git/worktrees.js';
import { killedWorktreeAdd } from './killed-worktree-add.js';
import { makeRepo, type TempRepo } from './temp-repo.js';

let repo: TempRepo;
beforeEach(() => {
  repo = makeRepo();
  for (let i = 0; i < 30; i++) repo.write(`out/t${i}.txt`, `done t${i}\n`);
  repo.git(['add', '-A']);
  repo.git(['commit', '-qm', 'earlier tasks']);
});
afterEach(() => repo.cleanup());

it('a worktree whose checkout a kill cut short is checked out before it is handed out, so its commit deletes nothing', async () => {
  killedWorktreeAdd((a) => repo.git(a), repo.root, 't9', 'main');
  expect(existsSync(join(repo.root, '.worktrees/t9/out/t1.txt'))).toBe(false); // the state the kill left
  const made = await new Worktrees({ repoRoot: repo.root }).create({ taskId: 't9', agent: 'w1' });
  if (!made.ok) throw new Error(made.error);
  expect(made.value).toMatchObject({ branch: 'teamd/t9', reusedBranch: true, reusedWorktree: false });
  const wt = made.value.path;
  expect(repo.git(['status', '--porcelain'], wt)).toBe('');
  expect(repo.read('out/t1.txt', wt)).toBe('done t1\n');
  repo.write('out/t9-new.txt', 'done t9\n', wt);
  const committed = await commitWorktree(wt, { message: 't9', authorName: 'w1', authorEmail: teammateEmail('w1') });
  expect(committed.ok && committed.value.commit).toMatch(/^[0-9a-f]{40}$/);
  expect(repo.git(['diff', '--name-status', 'main', 'teamd/t9'])).toBe('A\tout/t9-new.txt');
});

it('a finished worktree with a teammate\'s uncommitted work is adopted as it is', async () => {
  const wts = new Worktrees({ repoRoot: repo.root });
  const first = await wts.create({ taskId: 't8', agent: 'w1' });
  if (!first.ok) throw new Error(first.error);
  repo.write('out/t8.txt', 'half of t8\n', first.value.path);
  const again = await wts.create({ taskId: 't8', agent: 'w1' });
  expect(again.ok && again.value).toMatchObject({ reusedWorktree: true });
  expect(repo.read('out/t8.txt', first.value.path)).toBe('half of t8\n');
});
