/**
 * `teamd review [id]`, `teamd accept <id>`, and the review half of
 * `teamd reject <id> --reason …`: a person's side of review before merge.
 * The answer is a change of the task file (under its lock); the running lead
 * sees it and merges an accepted task, or the owner picks a rejected one up.
 */
import type { Command } from 'commander';
import { loadConfig } from '../config/load.js';
import { reviewDiff } from '../git/review-diff.js';
import { acceptTaskReview, isInReview, rejectTaskReview } from '../lead/review-answers.js';
import { inReview, type ReviewedHandoff } from '../lead/review-state.js';
import { TaskStore } from '../store/tasks/index.js';
import type { Task } from '../store/types.js';
import { fail } from './cli-error.js';
import { oneLine, printJson, printLine, printRecordLine, printTable } from './output.js';
import { addDirOption, resolveRepoDir, type DirOption } from './repo-dir.js';

export function registerReviewCommands(program: Command): void {
  addDirOption(program.command('review [id]').description('finished tasks waiting for a review; with an id, its summary and diff'))
    .option('--json', 'print JSON')
    .action(review);
  addDirOption(program.command('accept <id>').description('accept a task in review: it goes to the merge queue')).action(accept);
}

const handoffOf = (t: Task): ReviewedHandoff => t.metadata.merge as ReviewedHandoff;

async function config(repoRoot: string) {
  const loaded = await loadConfig(repoRoot);
  return loaded.ok ? loaded.config : fail(loaded.error);
}

async function review(id: string | undefined, options: DirOption & { json?: boolean }): Promise<void> {
  const repoRoot = resolveRepoDir(options);
  const store = await TaskStore.open(repoRoot, { normalise: false });
  const waiting = store.list({ status: 'in_progress' }).filter(inReview);
  if (id === undefined) return listReviews(waiting, options.json);
  const task = waiting.find((t) => t.id === id) ?? fail(`task ${id} is not waiting for a review (${store.get(id)?.status ?? 'no such task'})`);
  const h = handoffOf(task);
  const diff = await reviewDiff(repoRoot, (await config(repoRoot)).worktrees.integrationBranch, h.branch);
  if (!diff.ok) fail(diff.error);
  if (options.json) return printJson({ task, diff: diff.value });
  printRecordLine(`task:      ${task.id} — ${task.subject}`);
  printRecordLine(`by:        ${h.agent} on ${h.branch} (${h.commit?.slice(0, 12) ?? 'no commit'})`);
  printLine(`reviewer:  ${h.review?.mode === 'agent' ? 'the reviewer agent' : 'a person'}${h.review?.handedOver ? ` (${h.review.handedOver})` : ''}`);
  printLine(`summary:   ${h.summary}`);
  printLine(`answer:    teamd accept ${task.id}  /  teamd reject ${task.id} --reason "…"\n`);
  printLine(diff.value.trimEnd());
}

function listReviews(waiting: Task[], json: boolean | undefined): void {
  if (json) return printJson(waiting);
  if (waiting.length === 0) return printLine('no task waits for a review');
  printTable(
    ['TASK', 'BY', 'REVIEWER', 'SINCE', 'SUBJECT'],
    waiting.map((t) => {
      const h = handoffOf(t);
      return [t.id, h.agent, h.review?.mode ?? 'human', h.review?.requestedAt ?? '-', oneLine(t.subject, 50)];
    }),
  );
}

async function accept(id: string, options: DirOption): Promise<void> {
  const done = await acceptTaskReview(resolveRepoDir(options), id);
  if (!done.ok) fail(done.error);
  printLine(`accepted ${id}: it goes to the merge queue`);
}

/**
 * `teamd reject <id>` for a task in review; returns false when `id` names no
 * such task (it may be an approval request, which `reject` answers instead).
 */
export async function rejectReviewCommand(id: string, options: DirOption & { reason?: string }): Promise<boolean> {
  const repoRoot = resolveRepoDir(options);
  if (!(await isInReview(repoRoot, id))) return false;
  if (!options.reason?.trim()) fail('--reason: say what must change (it goes back to the teammate)');
  const max = (await config(repoRoot)).maxAttempts;
  const done = await rejectTaskReview(repoRoot, id, options.reason, max);
  if (!done.ok) fail(done.error);
  printLine(done.value.status === 'failed' ? `rejected ${id}: it failed (attempt ${done.value.attempts} of ${max})` : `rejected ${id}: back to ${done.value.owner}`);
  return true;
}
