/**
 * Code carried by git between the lead and a remote teammate. Out: the task
 * branch the lead made (its worktree at the base) goes as a bundle into the
 * remote's bare clone, where a worktree on the same branch is made. Back: the
 * commits the teammate made go as a bundle into the lead's task worktree as a
 * fast-forward, so the merge queue finds the branch as a thread teammate
 * would have left it. The remote never sees the lead's other branches after
 * the first bundle, nor any team file (they are outside git).
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { git } from '../../../git/run-git.js';
import type { Outcome } from '../../../store/types.js';
import { remoteRoot } from './argv.js';
import { runSsh } from './exec.js';
import { dropBranchScript, receiveBaseScript, sendBranchScript, wipCommitScript } from './scripts.js';
import type { RemoteWorktree, SshHostConfig } from './types.js';

/** The team's folder name on a remote: one per lead repository (machine and path), so two teams never share a clone. */
export const teamIdOf = (repoRoot: string): string =>
  `team-${createHash('sha256').update(`${hostname()}:${repoRoot}`).digest('hex').slice(0, 12)}`;

async function withTempFile<T>(name: string, use: (file: string) => Promise<T>): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), 'teamd-ssh-'));
  try {
    return await use(join(dir, name));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Sends `branch` of the lead's repository (at `leadWorktree`) to the remote; the remote worktree it is checked out in. */
export function sendBase(config: SshHostConfig, teamId: string, leadWorktree: string, branch: string): Promise<Outcome<RemoteWorktree>> {
  return withTempFile('base.bundle', async (bundle) => {
    const made = await git(leadWorktree, ['bundle', 'create', '-q', bundle, `refs/heads/${branch}`]);
    if (!made.ok) return { ok: false, error: `git bundle create (${branch}): ${made.error}` };
    const sent = await runSsh(config, 'receive the task branch', receiveBaseScript(remoteRoot(config, teamId), branch), { input: bundle });
    if (!sent.ok) return sent;
    const path = sent.value.trim().split('\n').pop() ?? '';
    if (!path.startsWith('/')) return { ok: false, error: `ssh ${config.target}: no worktree path came back (got ${JSON.stringify(sent.value.slice(0, 200))})` };
    return { ok: true, value: { path, branch } };
  });
}

/** Fast-forwards the lead's task worktree to the teammate's commits on `branch`; the new tip, or null when it made none. */
export function bringBack(config: SshHostConfig, teamId: string, leadWorktree: string, branch: string): Promise<Outcome<string | null>> {
  return withTempFile('back.bundle', async (bundle) => {
    const got = await runSsh(config, 'send the task branch back', sendBranchScript(remoteRoot(config, teamId), branch), { output: bundle });
    if (!got.ok) return got;
    if (statSync(bundle).size === 0) return { ok: true, value: null };
    const fetched = await git(leadWorktree, ['fetch', '-q', '--no-tags', bundle, `refs/heads/${branch}`]);
    if (!fetched.ok) return { ok: false, error: `git fetch of the remote's bundle (${branch}): ${fetched.error}` };
    const merged = await git(leadWorktree, ['merge', '-q', '--ff-only', 'FETCH_HEAD']);
    if (!merged.ok) return { ok: false, error: `fast-forward of ${branch} to the remote's commits: ${merged.error}` };
    const tip = await git(leadWorktree, ['rev-parse', 'HEAD']);
    return tip.ok ? { ok: true, value: tip.value.trim() } : tip;
  });
}

/**
 * Brings everything of the remote worktree back into the lead's: the
 * teammate's own commits as they are, and the files it left uncommitted as
 * uncommitted files (they travel as a commit that is undone here), so the
 * lead commits them as it would a thread teammate's worktree.
 */
export async function carryWorktreeBack(config: SshHostConfig, teamId: string, leadWorktree: string, branch: string): Promise<Outcome<null>> {
  const wip = await runSsh(config, 'commit what was left', wipCommitScript(remoteRoot(config, teamId), branch));
  if (!wip.ok) return wip;
  const back = await bringBack(config, teamId, leadWorktree, branch);
  if (!back.ok) return back;
  if (wip.value.trim() !== 'wip') return { ok: true, value: null };
  const undone = await git(leadWorktree, ['reset', '-q', '--mixed', 'HEAD~1']);
  return undone.ok ? { ok: true, value: null } : { ok: false, error: `undoing the carrying commit in ${leadWorktree}: ${undone.error}` };
}

/** Forgets the task branch on the remote: its worktree, branch and base ref. */
export async function dropRemoteBranch(config: SshHostConfig, teamId: string, branch: string): Promise<Outcome<null>> {
  const r = await runSsh(config, 'drop the task branch', dropBranchScript(remoteRoot(config, teamId), branch));
  return r.ok ? { ok: true, value: null } : r;
}
