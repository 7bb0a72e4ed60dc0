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
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
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

/**
 * Commits each remote's clone is known to hold (sent or brought back), newest
 * last, by remote clone: a bundle leaves them out, so after the first task only
 * the new history travels. Memory only: after a restart the first bundle is
 * whole again, and a clone that lost them (wiped) gets a whole one on retry.
 */
const knownByRemote = new Map<string, string[]>();
const KNOWN_MAX = 16;
const remoteKey = (config: SshHostConfig, teamId: string) => `${config.target}:${config.port ?? 22}:${config.remoteDir}:${teamId}`;

function remember(config: SshHostConfig, teamId: string, commit: string): void {
  const key = remoteKey(config, teamId);
  const known = (knownByRemote.get(key) ?? []).filter((c) => c !== commit);
  knownByRemote.set(key, [...known, commit].slice(-KNOWN_MAX));
}

/** Sends `branch` of the lead's repository (at `leadWorktree`) to the remote; the remote worktree it is checked out in. */
export async function sendBase(config: SshHostConfig, teamId: string, leadWorktree: string, branch: string): Promise<Outcome<RemoteWorktree>> {
  const known = knownByRemote.get(remoteKey(config, teamId)) ?? [];
  const thin = known.length > 0 ? await sendBundle(config, teamId, leadWorktree, branch, known) : null;
  const sent = thin?.ok ? thin : await sendBundle(config, teamId, leadWorktree, branch, []);
  if (!sent.ok) return sent;
  const tip = await git(leadWorktree, ['rev-parse', `refs/heads/${branch}`]);
  if (tip.ok) remember(config, teamId, tip.value.trim());
  return sent;
}

function sendBundle(config: SshHostConfig, teamId: string, leadWorktree: string, branch: string, exclude: string[]): Promise<Outcome<RemoteWorktree>> {
  return withTempFile('base.bundle', async (bundle) => {
    const tip = await git(leadWorktree, ['rev-parse', '--verify', `refs/heads/${branch}^{commit}`]);
    if (!tip.ok) return tip;
    const made = await makeBundle(leadWorktree, bundle, branch, exclude);
    if (!made.ok) return made;
    const script = receiveBaseScript(remoteRoot(config, teamId), branch, tip.value.trim());
    const sent = await runSsh(config, 'receive the task branch', script, { input: bundle });
    if (!sent.ok) return sent;
    const path = sent.value.trim().split('\n').pop() ?? '';
    if (!path.startsWith('/')) return { ok: false, error: `ssh ${config.target}: no worktree path came back (got ${JSON.stringify(sent.value.slice(0, 200))})` };
    return { ok: true, value: { path, branch } };
  });
}

/** The bundle of `branch` without the `exclude`d history; an empty file when nothing is left (the remote has the tip). */
async function makeBundle(cwd: string, bundle: string, branch: string, exclude: string[]): Promise<Outcome<null>> {
  const not = exclude.map((c) => `^${c}`);
  const count = await git(cwd, ['rev-list', '--count', `refs/heads/${branch}`, ...not]);
  if (!count.ok) return count;
  if (Number(count.value.trim()) === 0) {
    writeFileSync(bundle, '');
    return { ok: true, value: null };
  }
  const made = await git(cwd, ['bundle', 'create', '-q', bundle, `refs/heads/${branch}`, ...not]);
  return made.ok ? { ok: true, value: null } : { ok: false, error: `git bundle create (${branch}): ${made.error}` };
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
    if (!tip.ok) return tip;
    remember(config, teamId, tip.value.trim());
    return { ok: true, value: tip.value.trim() };
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
