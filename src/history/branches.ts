import { runGit } from '../git/run-git.js';
import type { TaskStore } from '../store/tasks/index.js';

const PREFIX = 'teamd/';

/**
 * The `teamd/<id>` branches already merged into the integration branch whose
 * task is completed (on the board or in its archive): their work is in the
 * integration branch, the branch itself is only history. The integration
 * branch is never one of them.
 */
export async function mergedTaskBranches(
  repoRoot: string,
  tasks: TaskStore,
  integration: string,
): Promise<string[]> {
  const listed = await runGit(repoRoot, [
    'for-each-ref',
    '--format=%(refname:short)',
    '--merged',
    integration,
    `refs/heads/${PREFIX}`,
  ]);
  if (listed.exitCode !== 0) return [];
  return listed.stdout
    .split('\n')
    .map((b) => b.trim())
    .filter((b) => b.startsWith(PREFIX) && b !== integration)
    .filter((b) => tasks.find(b.slice(PREFIX.length))?.task.status === 'completed');
}

/** Deletes `branches`; returns those deleted and a note per one that could not be. */
export async function deleteBranches(
  repoRoot: string,
  branches: readonly string[],
): Promise<{ deleted: string[]; notes: string[] }> {
  const deleted: string[] = [];
  const notes: string[] = [];
  for (const branch of branches) {
    const done = await runGit(repoRoot, ['branch', '-D', '--', branch]);
    if (done.exitCode === 0) deleted.push(branch);
    else notes.push(`could not delete branch ${branch}: ${done.stderr.trim()}`);
  }
  return { deleted, notes };
}
