/**
 * What a lead does at boot, before any teammate starts. The previous lead may
 * have died at any instant (SIGKILL); files are the truth, so:
 * - a task in progress whose owner is one of our teammates cannot still be
 *   running (we hold the pid lock, its worker died with the old lead): it goes
 *   back to pending at once, one attempt counted, or fails after maxAttempts;
 *   a task held by someone else keeps its lease until it expires;
 * - a task finished and waiting for its merge stays as it is (the merge queue
 *   picks it up again);
 * - mail taken but never acknowledged is handed out again (recipients drop ids
 *   they already hold);
 * - a task in progress with no lease (a hand edit, a copied file) is unstuck:
 *   without an owner back to pending, with one leased to that owner, who
 *   renews it if it is really working on it (`repairLeaseless`). The reaper
 *   does the same while the lead runs.
 */
import type { TeamConfig } from '../config/schema.js';
import type { TeamEvent } from '../observe/types.js';
import type { MailboxStore } from '../store/mailbox/index.js';
import type { TaskStore } from '../store/tasks/index.js';
import { retryOrFail } from '../store/tasks/lifecycle.js';
import type { Outcome, Task } from '../store/types.js';

export const awaitingMerge = (t: Task): boolean =>
  t.status === 'in_progress' && (t.metadata.merge as { state?: string } | undefined)?.state === 'queued';

/** Finished and handed to the lead: queued for merge or waiting in review. No worker holds it. */
export const handedOff = (t: Task): boolean =>
  t.status === 'in_progress' &&
  ['queued', 'review'].includes((t.metadata.merge as { state?: string } | undefined)?.state ?? '');

/** Puts a task whose worker is gone back on the board (or fails it after too many attempts). */
export function orphanedTask(task: Task, reason: string, maxAttempts: number): Outcome<Task> {
  if (task.status !== 'in_progress') return { ok: false, error: `task ${task.id} is ${task.status}` };
  return { ok: true, value: retryOrFail(task, 'lead', reason, maxAttempts, new Date()) };
}

export async function reclaimFrom(
  tasks: TaskStore,
  owner: string,
  reason: string,
  maxAttempts: number,
  log: (e: TeamEvent) => void,
): Promise<void> {
  for (const task of tasks.list({ status: 'in_progress', owner })) {
    if (handedOff(task)) continue;
    const r = await tasks.update(task.id, (t) =>
      t.owner === owner && !handedOff(t)
        ? orphanedTask(t, reason, maxAttempts)
        : { ok: false, error: 'changed meanwhile' },
    );
    if (r.ok)
      log({
        type: 'task_reclaimed',
        task: task.id,
        previousOwner: owner,
        attempts: r.value.attempts,
        failed: r.value.status === 'failed',
      });
  }
}

/** Unsticks tasks in progress without a lease (see `repairLeaseless`) and logs what it did. */
export async function reclaimLeaseless(
  tasks: TaskStore,
  leaseMs: number,
  log: (e: TeamEvent) => void,
): Promise<void> {
  for (const t of await tasks.repairLeaseless(new Date(), leaseMs, awaitingMerge)) {
    if (t.status === 'pending')
      log({ type: 'task_reclaimed', task: t.id, previousOwner: null, attempts: t.attempts, failed: false });
    else
      log({
        type: 'notice',
        message: `task ${t.id} was in progress for ${t.owner} with no lease: leased to ${t.owner} until ${t.lease?.expiresAt}`,
      });
  }
}

export async function reconcileOnBoot(deps: {
  tasks: TaskStore;
  mailbox: MailboxStore;
  config: TeamConfig;
  log: (e: TeamEvent) => void;
}): Promise<void> {
  const { tasks, mailbox, config, log } = deps;
  for (const t of config.teammates) {
    await reclaimFrom(
      tasks,
      t.name,
      'the previous lead stopped while this task was in progress',
      config.maxAttempts,
      log,
    );
    await mailbox.recoverStale(t.name, 0);
  }
  await reclaimLeaseless(tasks, config.leaseMs, log);
  for (const task of await tasks.reclaimExpired(new Date(), config.maxAttempts)) {
    log({
      type: 'task_reclaimed',
      task: task.id,
      previousOwner: null,
      attempts: task.attempts,
      failed: task.status === 'failed',
    });
  }
  for (const p of tasks.problems())
    log({ type: 'task_problem', file: p.file, message: p.field ? `${p.field}: ${p.message}` : p.message });
}
