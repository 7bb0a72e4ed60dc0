import { commitWorktree, teammateEmail } from '../../src/git/commit.js';
import type { MergeQueue } from '../../src/git/merge-queue.js';
import { Worktrees } from '../../src/git/worktrees.js';
import type { TaskStore } from '../../src/store/tasks/index.js';
import type { TempRepo } from './temp-repo.js';

/**
 * A finished task as a teammate leaves it: committed branch, task in progress awaiting merge, queued.
 * `make` writes its change in the worktree (by default `file` with the id in it).
 */
export async function finishedTask(
  repo: TempRepo,
  tasks: TaskStore,
  queue: MergeQueue,
  id: string,
  file: string,
  make: (worktree: string) => void = (w) => repo.write(file, `${id}\n`, w),
): Promise<void> {
  const made = await new Worktrees({ repoRoot: repo.root }).create({ taskId: id, agent: 'w1' });
  if (!made.ok) throw new Error(made.error);
  make(made.value.path);
  const committed = await commitWorktree(made.value.path, { message: id, authorName: 'w1', authorEmail: teammateEmail('w1') });
  if (!committed.ok) throw new Error(committed.error);
  const lease = { owner: 'w1', expiresAt: new Date(Date.now() + 3600_000).toISOString() };
  const merge = { state: 'queued', branch: made.value.branch, commit: committed.value.commit, summary: `did ${id}`, filesTouched: [file], agent: 'w1' };
  await tasks.create({ id, subject: `task ${id}` });
  const r = await tasks.update(id, (t) => ({ ...t, status: 'in_progress', owner: 'w1', lease, metadata: { merge } }));
  if (!r.ok) throw new Error(r.error);
  await queue.enqueue({ taskId: id, branch: made.value.branch, agent: 'w1', subject: `task ${id}` });
}
