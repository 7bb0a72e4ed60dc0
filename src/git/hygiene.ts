import { git, isAncestor, runGit } from './run-git.js';
import type { CleanReport, Outcome, WorktreeRecord } from './types.js';
import type { Worktrees } from './worktrees.js';

export interface CleanOptions {
  /** Whether a task is done with (merged, completed or cancelled): its worktree can go. */
  isFinished: (taskId: string) => boolean | Promise<boolean>;
  /** Remove a finished task's worktree even with uncommitted changes (they are lost). */
  force?: boolean;
  /** Also delete `teamd/<id>` branches of finished tasks that the integration branch contains. */
  deleteMergedBranches?: boolean;
}

/**
 * Removes the worktrees of finished tasks and prunes git's records of
 * worktrees whose folder is gone. Unfinished tasks, teammates' and the merge
 * queue's worktrees are never touched; a finished task's worktree with
 * uncommitted changes is kept unless `force`. Branches stay unless merged and
 * `deleteMergedBranches`.
 */
export async function cleanWorktrees(
  worktrees: Worktrees,
  options: CleanOptions,
): Promise<Outcome<CleanReport>> {
  const listed = await worktrees.list();
  if (!listed.ok) return listed;
  const report: CleanReport = { removed: [], kept: [], deletedBranches: [], errors: [] };
  for (const record of listed.value) {
    if (record.kind === 'task' && record.taskId)
      await cleanOne(worktrees, record, record.taskId, options, report);
  }
  const pruned = await git(worktrees.repoRoot, ['worktree', 'prune']);
  if (!pruned.ok) return pruned;
  if (options.deleteMergedBranches) report.deletedBranches = await deleteMergedBranches(worktrees, options);
  return { ok: true, value: report };
}

async function cleanOne(
  worktrees: Worktrees,
  record: WorktreeRecord,
  taskId: string,
  options: CleanOptions,
  report: CleanReport,
): Promise<void> {
  if (!(await options.isFinished(taskId)))
    return void report.kept.push({ taskId, reason: 'task not finished' });
  if (record.dirty && !options.force) {
    return void report.kept.push({ taskId, reason: 'uncommitted changes (use force to discard them)' });
  }
  const removed = await worktrees.remove(taskId);
  if (removed.ok) report.removed.push(taskId);
  else report.errors.push({ taskId, error: removed.error });
}

/** Deletes merged `teamd/<task-id>` branches of finished tasks that no worktree has checked out. */
async function deleteMergedBranches(worktrees: Worktrees, options: CleanOptions): Promise<string[]> {
  const integration = `refs/heads/${worktrees.integrationBranch}`;
  const format = '--format=%(refname)%00%(objectname)%00%(worktreepath)';
  const refs = await git(worktrees.repoRoot, ['for-each-ref', format, 'refs/heads/teamd/']);
  if (!refs.ok) return [];
  const deleted: string[] = [];
  for (const line of refs.value.split('\n')) {
    const [ref = '', tip = '', checkedOutAt = ''] = line.split('\0');
    const taskId = ref.slice('refs/heads/teamd/'.length);
    if (ref === integration || checkedOutAt !== '' || taskId.includes('/') || taskId.startsWith('@'))
      continue;
    if (!(await options.isFinished(taskId)) || !(await isAncestor(worktrees.repoRoot, tip, integration)))
      continue;
    const run = await runGit(worktrees.repoRoot, ['update-ref', '-d', ref, tip]);
    if (run.exitCode === 0) deleted.push(ref.slice('refs/heads/'.length));
  }
  return deleted;
}
