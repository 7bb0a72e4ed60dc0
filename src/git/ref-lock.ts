import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { git } from './run-git.js';

/**
 * A process killed inside `git update-ref` leaves `refs/heads/<branch>.lock`,
 * and every later update of that branch fails until it is removed. Called by
 * the merge queue's recovery only, after a crash mid-merge, by the one
 * process (the lead) that moves the integration branch.
 */
export async function removeStaleRefLock(repoRoot: string, branch: string): Promise<void> {
  const common = await git(repoRoot, ['rev-parse', '--path-format=absolute', '--git-common-dir']);
  if (!common.ok) return;
  await rm(join(common.value.trim(), 'refs', 'heads', `${branch}.lock`), { force: true });
}
