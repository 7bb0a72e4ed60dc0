/**
 * A person's answer to a task in review, as data: `teamd accept` / `teamd
 * reject <task> --reason …` and the web page's buttons both come here. The
 * answer is a change of the task file under its lock; the running lead sees
 * it and merges an accepted task, or the owner picks a rejected one up.
 */
import { EventLog } from '../observe/event-log.js';
import { MailboxStore } from '../store/mailbox/index.js';
import { TaskStore } from '../store/tasks/index.js';
import type { Task } from '../store/types.js';
import type { Outcome } from '../git/types.js';
import { acceptReview, inReview, rejectReview } from './review-state.js';
import { reportAnswer } from './reviews.js';

function answerDeps(repoRoot: string) {
  const log = EventLog.forRepo(repoRoot);
  return { mailbox: new MailboxStore(repoRoot), log: (e: Parameters<typeof log.append>[0]) => log.append(e) };
}

/** Is task `id` waiting for a review now? */
export async function isInReview(repoRoot: string, id: string): Promise<boolean> {
  const store = await TaskStore.open(repoRoot, { normalise: false });
  return inReview(store.get(id));
}

/** Accepts task `id` in review as `by`: it goes to the merge queue. */
export async function acceptTaskReview(repoRoot: string, id: string, by = 'user'): Promise<Outcome<Task>> {
  const store = await TaskStore.open(repoRoot, { normalise: false });
  const done = await store.update(id, (t) => acceptReview(t, by, new Date()));
  if (done.ok) await reportAnswer(answerDeps(repoRoot), done.value, true, by, '');
  return done;
}

/** Rejects task `id` in review with `reason` (required): back to its owner, or failed after `maxAttempts`. */
export async function rejectTaskReview(
  repoRoot: string,
  id: string,
  reason: string,
  maxAttempts: number,
  by = 'user',
): Promise<Outcome<Task>> {
  const why = reason.trim();
  if (!why) return { ok: false, error: 'reason: say what must change (it goes back to the teammate)' };
  const store = await TaskStore.open(repoRoot, { normalise: false });
  const done = await store.update(id, (t) => rejectReview(t, by, why, maxAttempts, new Date()));
  if (done.ok) await reportAnswer(answerDeps(repoRoot), done.value, false, by, why);
  return done;
}
