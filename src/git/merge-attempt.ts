import { checkIntegrationNotCheckedOut } from './integration.js';
import type { MergeWorktree } from './merge-worktree.js';
import { describeFailure, git, identityEnv, isAncestor, resolveCommit, runGit } from './run-git.js';
import { runShell } from './run-shell.js';
import { TEAMD_IDENTITY, type MergeEntry, type Outcome, type Refusal, type RefMoveGuard } from './types.js';

export interface AttemptContext {
  repoRoot: string;
  integrationBranch: string;
  worktree: MergeWorktree;
  verify?: string;
  verifyTimeoutMs: number;
  /** Aborted when the queue closes: a running verify is killed and the attempt is interrupted. */
  signal: AbortSignal;
  /** Told the verify command's process group, so it can be recorded for crash recovery. */
  onVerifySpawn: (pid: number) => Promise<void>;
  /** Runs the integration branch's move under the task's lock, unless the task was withdrawn (cancelled). */
  guardRefMove?: RefMoveGuard;
}

/** The tips an attempt starts from, recorded in the entry before anything else happens. */
export interface AttemptTips {
  baseTip: string;
  branchTip: string;
}

/**
 * What one attempt did. `requeue`: not the task's fault, the entry goes back
 * to `queued` — at once retried when the integration branch merely moved
 * meanwhile (`retry`), else left for later (the queue closed, or the
 * integration branch got checked out somewhere).
 */
export type AttemptResult =
  | { kind: 'merged'; mergeCommit: string; alreadyMerged: boolean }
  | { kind: 'refused'; refusal: Refusal }
  | { kind: 'requeue'; message: string; retry: boolean }
  | { kind: 'cancelled'; message: string };

const DEFAULT_VERIFY_TIMEOUT_MS = 600_000;
export const defaultVerifyTimeout = (ms?: number): number => ms ?? DEFAULT_VERIFY_TIMEOUT_MS;

/**
 * Merges one task branch: `--no-ff` merge of the recorded branch tip onto the
 * recorded integration tip in the merge worktree, verify, then move the
 * integration branch by compare-and-swap. Until that last step nothing
 * outside `.worktrees/.merge` changes, so a crash before it leaves the old tip
 * and a crash after it the new one.
 */
export async function attemptMerge(
  ctx: AttemptContext,
  entry: MergeEntry,
  tips: AttemptTips,
): Promise<AttemptResult> {
  if (await isAncestor(ctx.repoRoot, tips.branchTip, tips.baseTip)) {
    const found = await findMergeCommit(ctx.repoRoot, tips.branchTip, tips.baseTip);
    return { kind: 'merged', mergeCommit: found, alreadyMerged: true };
  }
  const ready = await ctx.worktree.checkout(tips.baseTip);
  if (!ready.ok) return refused('error', `could not prepare the merge worktree: ${ready.error}`);
  const merged = await mergeBranch(ctx, entry, tips.branchTip);
  if (merged) return cleanAfter(ctx, merged);
  const verified = await runVerify(ctx, entry);
  if (verified) return cleanAfter(ctx, verified);
  return moveIntegration(ctx, entry, tips);
}

async function mergeBranch(
  ctx: AttemptContext,
  entry: MergeEntry,
  branchTip: string,
): Promise<AttemptResult | null> {
  const message = mergeMessage(entry);
  const env = identityEnv(TEAMD_IDENTITY, TEAMD_IDENTITY);
  const args = ['merge', '--no-ff', '--no-verify', '--no-edit', '-m', message, branchTip];
  const run = await runGit(ctx.worktree.path, args, { env });
  if (run.exitCode === 0) return null;
  const unmerged = await git(ctx.worktree.path, ['diff', '--name-only', '-z', '--diff-filter=U'], {
    raw: true,
  });
  const files = unmerged.ok ? unmerged.value.split('\0').filter((f) => f !== '') : [];
  if (files.length === 0) return refused('error', describeFailure(args, run));
  const text =
    `Merging ${entry.branch} into ${ctx.integrationBranch} conflicts in: ${files.join(', ')}. ` +
    `Merge ${ctx.integrationBranch} into your branch, resolve the conflicts, commit, and finish the task again.`;
  return {
    kind: 'refused',
    refusal: { reason: 'conflict', message: text, conflictFiles: files, outputTail: '' },
  };
}

async function runVerify(ctx: AttemptContext, entry: MergeEntry): Promise<AttemptResult | null> {
  if (!ctx.verify) return null;
  const result = await runShell(ctx.verify, {
    cwd: ctx.worktree.path,
    timeoutMs: ctx.verifyTimeoutMs,
    signal: ctx.signal,
    onSpawn: ctx.onVerifySpawn,
  });
  if (ctx.signal.aborted)
    return { kind: 'requeue', message: 'the merge queue closed while verifying', retry: false };
  if (result.exitCode === 0) return null;
  const how = result.timedOut
    ? `timed out after ${ctx.verifyTimeoutMs} ms`
    : `failed (exit ${result.exitCode})`;
  const text = `After merging ${entry.branch} into ${ctx.integrationBranch}, the verify command '${ctx.verify}' ${how}:\n${result.outputTail}`;
  return {
    kind: 'refused',
    refusal: { reason: 'verify_failed', message: text, conflictFiles: [], outputTail: result.outputTail },
  };
}

async function moveIntegration(
  ctx: AttemptContext,
  entry: MergeEntry,
  { baseTip, branchTip }: AttemptTips,
): Promise<AttemptResult> {
  const head = await git(ctx.worktree.path, ['rev-parse', 'HEAD']);
  if (!head.ok) return cleanAfter(ctx, refused('error', head.error));
  const free = await checkIntegrationNotCheckedOut(ctx.repoRoot, ctx.integrationBranch);
  if (!free.ok) return cleanAfter(ctx, { kind: 'requeue', message: free.error, retry: false });
  const newTip = head.value.trim();
  const ref = `refs/heads/${ctx.integrationBranch}`;
  const message = `teamd: merge task ${entry.taskId}`;
  const move = async (): Promise<Outcome<string>> => {
    const moved = await git(ctx.repoRoot, ['update-ref', '-m', message, ref, newTip, baseTip]);
    return moved.ok ? { ok: true, value: newTip } : moved;
  };
  const tips = { baseTip, branchTip, newTip };
  const guarded = ctx.guardRefMove ? await ctx.guardRefMove(entry.taskId, move, tips) : fromMove(await move());
  if (guarded.kind === 'moved') return { kind: 'merged', mergeCommit: newTip, alreadyMerged: false };
  if (guarded.kind === 'withdrawn') return cleanAfter(ctx, { kind: 'cancelled', message: guarded.reason });
  const now = await resolveCommit(ctx.repoRoot, ref);
  if (now !== baseTip) {
    return cleanAfter(ctx, {
      kind: 'requeue',
      message: `${ctx.integrationBranch} moved during the merge`,
      retry: true,
    });
  }
  return cleanAfter(ctx, refused('error', guarded.error));
}

const fromMove = (moved: Outcome<string>) =>
  moved.ok ? ({ kind: 'moved' } as const) : ({ kind: 'error', error: moved.error } as const);

/** Leaves the merge worktree clean after anything but a merge. */
async function cleanAfter(ctx: AttemptContext, result: AttemptResult): Promise<AttemptResult> {
  await ctx.worktree.clean();
  return result;
}

function refused(reason: 'error', message: string): AttemptResult {
  return { kind: 'refused', refusal: { reason, message, conflictFiles: [], outputTail: '' } };
}

export function mergeMessage(entry: Pick<MergeEntry, 'taskId' | 'subject' | 'branch' | 'agent'>): string {
  return `Merge task ${entry.taskId}: ${entry.subject}\n\nBranch: ${entry.branch}\nTeammate: ${entry.agent}\nteamd-task: ${entry.taskId}`;
}

/**
 * The commit on the integration branch's first-parent line that merged
 * `branchTip` (it is that commit's second parent). When the branch was merged
 * some other way (or had no commits of its own), the branch tip itself, which
 * the integration branch contains.
 */
export async function findMergeCommit(
  repoRoot: string,
  branchTip: string,
  integrationTip: string,
): Promise<string> {
  const listed = await git(repoRoot, [
    'rev-list',
    '--first-parent',
    '--parents',
    '-n',
    '10000',
    integrationTip,
  ]);
  if (!listed.ok) return branchTip;
  for (const line of listed.value.split('\n')) {
    const [commit, , ...others] = line.split(' ');
    if (commit && others.includes(branchTip)) return commit;
  }
  return branchTip;
}
