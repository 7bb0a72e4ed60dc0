import { git, isAncestor, resolveCommit, runGit } from './run-git.js';
import { TEAMD_IDENTITY, type AgentWorktree } from './types.js';

type SyncResult = Pick<AgentWorktree, 'synced' | 'note'>;

/**
 * Brings a teammate's long-lived worktree to the integration tip before its
 * next task, so it starts from everyone's merged work. Only a clean tree is
 * moved: when all its commits are merged it is reset to the tip; when some
 * are not (a refused merge) they are rebased onto the tip, and a rebase that
 * conflicts is aborted, leaving the branch as it was.
 */
export async function syncAgentWorktree(path: string, integrationBranch: string): Promise<SyncResult> {
  const tip = await resolveCommit(path, `refs/heads/${integrationBranch}`);
  if (!tip) return { synced: false, note: `integration branch '${integrationBranch}' does not exist` };
  const status = await git(path, ['status', '--porcelain']);
  if (!status.ok) return { synced: false, note: status.error };
  if (status.value.trim() !== '') return { synced: false, note: 'uncommitted changes: left as is' };
  if (await isAncestor(path, 'HEAD', tip)) return moveTo(path, ['reset', '--hard', tip]);
  const rebased = await moveTo(path, ['rebase', tip]);
  if (!rebased.synced) await runGit(path, ['rebase', '--abort']);
  return rebased;
}

async function moveTo(path: string, args: string[]): Promise<SyncResult> {
  // A rebase rewrites commits: teamd is their committer, the authors stay.
  const env = { GIT_COMMITTER_NAME: TEAMD_IDENTITY.name, GIT_COMMITTER_EMAIL: TEAMD_IDENTITY.email };
  const moved = await git(path, args, { env });
  return moved.ok ? { synced: true, note: null } : { synced: false, note: moved.error };
}
