/**
 * Merges that change what steers the agents (src/git/protected-paths.ts)
 * need a person, whatever `review` says: under `auto` and after the reviewer
 * agent's accept, such a task is held in review for a human (`teamd review`
 * says why; `teamd accept` lets it merge). Only an acceptance by someone
 * other than the reviewer agent, of the very commit, lets it through.
 */
import { protectedChanges } from '../git/protected-changes.js';
import type { MergeTips } from '../git/types.js';
import type { Outcome, Task } from '../store/types.js';
import type { ReviewedHandoff, ReviewRecord } from './review-state.js';

/** The reviewer agent's name in `accepted.by`. */
const REVIEWER = 'reviewer';
const MAX_LISTED = 5;

const handoff = (task: Task): ReviewedHandoff | undefined => task.metadata.merge as ReviewedHandoff | undefined;

/** A person (not the reviewer agent) accepted the commit that would merge (`branchTip` when known). */
export function acceptedByPerson(task: Task, branchTip?: string): boolean {
  const h = handoff(task);
  if (h?.accepted === undefined || h.accepted.by === REVIEWER || h.accepted.commit !== h.commit) return false;
  // A hand-off with nothing committed (commit null) names no tip to compare.
  return branchTip === undefined || h.accepted.commit === null || h.accepted.commit === branchTip;
}

/** What `teamd review` shows as the reason. */
export function protectedWhy(found: readonly string[]): string {
  const shown = found.slice(0, MAX_LISTED).join('; ');
  const more = found.length > MAX_LISTED ? `; and ${found.length - MAX_LISTED} more` : '';
  return `it changes files that steer the agents, so a person must accept it: ${shown}${more}`;
}

/** Into review by a person, whatever the mode, with the protected paths as the reason. */
export function holdForPerson(task: Task, why: string, now: Date): Outcome<Task> {
  const h = handoff(task);
  if (task.status !== 'in_progress' || h === undefined || (h.state !== 'queued' && h.state !== 'review'))
    return { ok: false, error: `task ${task.id} is not waiting to merge` };
  const review: ReviewRecord = { mode: 'human', requestedAt: now.toISOString(), handedOver: why };
  const merge = { ...h, state: 'review', review };
  return { ok: true, value: { ...task, metadata: { ...task.metadata, merge } } };
}

/**
 * Why the task's branch must wait for a person, or null when it may merge.
 * With `merge` (the guard's last look) what is checked is the merge commit
 * about to land, against the tip it was made on, and a person's accept
 * counts only for the branch tip that was merged: a branch moved after the
 * first look, or after the accept, cannot slip another commit in. A diff that
 * cannot be read holds it too (the safe answer).
 */
export async function personNeeded(repoRoot: string, integrationBranch: string, task: Task, merge?: MergeTips): Promise<string | null> {
  if (acceptedByPerson(task, merge?.branchTip)) return null;
  const branch = handoff(task)?.branch;
  if (branch === undefined) return null;
  const found =
    merge === undefined
      ? await protectedChanges(repoRoot, integrationBranch, branch)
      : await protectedChanges(repoRoot, merge.baseTip, merge.newTip);
  if (!found.ok) return `its changes could not be checked for files that steer the agents (${found.error}), so a person must accept it`;
  return found.value.length === 0 ? null : protectedWhy(found.value);
}
