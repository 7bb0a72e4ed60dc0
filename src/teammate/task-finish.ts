import type { ResultEvent } from '../agent/types.js';
import { commitWorktree } from '../git/commit.js';
import { retryOrFail } from '../store/tasks/lifecycle.js';
import type { Task, TaskResult } from '../store/types.js';
import type { TeammateHost } from './host.js';
import { modelTrouble, releaseForTrouble } from './model-trouble.js';

const MERGE_HOLD_MS = 7 * 24 * 3600_000;

export interface FinishContext {
  worktree: string | null;
  branch: string | null;
  touched: string[];
}

/** The merge hand-off a finished task carries in `metadata.merge` until the lead merges it. */
export interface MergeHandoff {
  state: 'queued';
  branch: string;
  commit: string | null;
  summary: string;
  filesTouched: string[];
  agent: string;
}

/**
 * Ends a task according to its run: success completes it (through the merge
 * queue when it has a worktree), an error fails it with the reason, an
 * interrupted run puts it back on the board.
 */
export async function finishTask(
  host: TeammateHost,
  task: Task,
  result: ResultEvent | null,
  ctx: FinishContext,
): Promise<void> {
  const { tasks } = host.deps;
  await tasks.refresh(task.id);
  const current = tasks.get(task.id);
  if (!current || current.status !== 'in_progress' || current.owner !== host.name) {
    host.deps.log({
      type: 'notice',
      agent: host.name,
      message: `task ${task.id} changed while it ran (now ${current?.status ?? 'gone'}); left as it is`,
    });
    return;
  }
  if (!result || result.subtype === 'aborted')
    return release(
      host,
      task,
      host.stopping ? `stopped: ${host.status.current.note ?? 'shutdown'}` : 'interrupted',
    );
  const trouble = modelTrouble(result);
  if (trouble && (await releaseForTrouble(host, task, trouble))) return;
  if (result.subtype !== 'success')
    return fail(host, task, `${result.subtype}${result.error ? `: ${result.error}` : ''}`);
  const summary = result.result.trim().slice(0, 4000) || '(no summary)';
  if (ctx.worktree && ctx.branch) return handToMerge(host, task, summary, ctx);
  const at = new Date();
  const done = await tasks.complete(task.id, host.name, { summary, filesTouched: ctx.touched });
  if (!done.ok) return fail(host, task, `could not complete: ${done.error}`);
  host.deps.log({ type: 'task_completed', task: task.id, agent: host.name, summary }, at);
  await tellLead(host, task, summary, {});
}

async function handToMerge(
  host: TeammateHost,
  task: Task,
  summary: string,
  ctx: FinishContext,
): Promise<void> {
  const commit = host.deps.viaLead?.commit ?? commitWorktree;
  const committed = await commit(ctx.worktree!, {
    message: `${task.subject} (${task.id})`,
    authorName: host.name,
    authorEmail: `${host.name}@teamd.local`,
  });
  if (!committed.ok) return fail(host, task, `could not commit the worktree: ${committed.error}`);
  const handoff: MergeHandoff = {
    state: 'queued',
    branch: ctx.branch!,
    commit: committed.value.commit,
    summary,
    filesTouched: ctx.touched,
    agent: host.name,
  };
  // The task stays in progress until its branch is merged, so its dependants
  // start only from an integration branch that has its work. The merge queue
  // (not a heartbeat) holds it now: a long lease, and reconcile never reclaims it.
  const mergeLease = { owner: host.name, expiresAt: new Date(Date.now() + MERGE_HOLD_MS).toISOString() };
  const updated = await host.deps.tasks.update(task.id, (t) => ({
    ...t,
    lease: mergeLease,
    metadata: { ...t.metadata, merge: handoff },
  }));
  if (!updated.ok) return fail(host, task, `could not hand over to the merge queue: ${updated.error}`);
  host.deps.log({
    type: 'notice',
    agent: host.name,
    message: `task ${task.id} finished; branch ${ctx.branch} queued for merge`,
  });
  await tellLead(host, task, summary, { branch: ctx.branch, commit: committed.value.commit });
}

/**
 * A routine report: recorded in the lead's mail history, never waiting in its
 * inbox (it needs no answer), and not logged as a message (the task's own
 * events say the same).
 */
async function tellLead(
  host: TeammateHost,
  task: Task,
  summary: string,
  extra: Record<string, unknown>,
): Promise<void> {
  await host.deps.mailbox.record({
    from: host.name,
    to: 'lead',
    type: 'task_completed',
    content: `Task ${task.id} (${task.subject}) done: ${summary}`,
    metadata: { task_id: task.id, ...extra },
  });
}

async function fail(host: TeammateHost, task: Task, error: string): Promise<void> {
  const failed = await host.deps.tasks.fail(task.id, host.name, error);
  if (failed.ok) host.deps.log({ type: 'task_failed', task: task.id, agent: host.name, error });
  else unrecorded(host, task, `failed (${error})`, failed.error);
}

/**
 * A run that ended without a result. A stop gives the task back as it is;
 * anything else (interrupted, no result) counts an attempt, and after the
 * team's `maxAttempts` the task fails instead of looping.
 */
async function release(host: TeammateHost, task: Task, reason: string): Promise<void> {
  if (host.stopping) {
    const released = await host.deps.tasks.release(task.id, host.name, reason);
    if (released.ok) host.deps.log({ type: 'task_released', task: task.id, agent: host.name, reason });
    else unrecorded(host, task, `was released (${reason})`, released.error);
    return;
  }
  const max = host.deps.data.team.maxAttempts;
  const r = await host.deps.tasks.update(task.id, (t) =>
    t.status === 'in_progress' && t.owner === host.name
      ? retryOrFail(t, host.name, `run ended without a result: ${reason}`, max, new Date())
      : { ok: false, error: 'changed meanwhile' },
  );
  // Cancelled or reclaimed meanwhile: not ours to release any more.
  if (!r.ok)
    return r.error === 'changed meanwhile'
      ? undefined
      : unrecorded(host, task, `was released (${reason})`, r.error);
  if (r.value.status === 'failed')
    return host.deps.log({
      type: 'task_failed',
      task: task.id,
      agent: host.name,
      error: r.value.result?.error ?? reason,
    });
  host.deps.log({ type: 'task_released', task: task.id, agent: host.name, reason });
}

/**
 * The event log says what the file says: an outcome that could not be
 * written (ENOSPC, EROFS, a lost lock) is not logged as if it were. The
 * task stays in progress on disk; no one renews its lease any more, so it
 * runs out and the lead puts the task back on the board.
 */
function unrecorded(host: TeammateHost, task: Task, outcome: string, why: string): void {
  host.deps.log({
    type: 'notice',
    agent: host.name,
    message: `task ${task.id} ${outcome}, but that could not be written (${why}): its file still says in_progress, and it goes back to the board when its lease runs out`,
  });
}

export type { TaskResult };
