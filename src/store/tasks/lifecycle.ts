/**
 * The changes the store makes on a task's behalf, as pure functions of the
 * freshly re-read task. Each refuses (as data) when the task is not in a state
 * the change makes sense for; `checkChange` then guards the status edge.
 */
import type { Outcome, Task, TaskResult } from '../types.js';
import { TaskSchema } from '../types.js';

const refuse = (error: string): Outcome<Task> => ({ ok: false, error });
const accept = (value: Task): Outcome<Task> => ({ ok: true, value });

function withNote(task: Task, by: string, text: string, now: Date): Task {
  return { ...task, notes: [...task.notes, { ts: now.toISOString(), by, text }] };
}

const leaseUntil = (owner: string, now: Date, leaseMs: number) => ({
  owner,
  expiresAt: new Date(now.getTime() + leaseMs).toISOString(),
});

/** A new pending task with every default filled in. */
export function blankTask(id: string, subject: string, nowIso: string): Task {
  return TaskSchema.parse({ id, subject, createdAt: nowIso, updatedAt: nowIso });
}

/** The task must be in progress and held by `owner`. */
function heldBy(task: Task, owner: string): Outcome<Task> {
  if (task.status === 'in_progress' && task.owner === owner) return accept(task);
  const holder = task.status === 'in_progress' ? ` by ${task.owner}` : '';
  return refuse(`task "${task.id}" is ${task.status}${holder}, not in progress by ${owner}`);
}

/** Ready = pending, every blocker completed (`openBlockers` empty), unassigned or assigned to `owner`. */
export function claimTask(
  task: Task,
  owner: string,
  leaseMs: number,
  now: Date,
  openBlockers: string[],
): Outcome<Task> {
  if (task.status !== 'pending') return refuse(`task "${task.id}" is ${task.status}, not pending`);
  if (task.owner !== null && task.owner !== owner)
    return refuse(`task "${task.id}" is assigned to ${task.owner}`);
  if (openBlockers.length) return refuse(`task "${task.id}" is blocked by ${openBlockers.join(', ')}`);
  return accept({ ...task, status: 'in_progress', owner, lease: leaseUntil(owner, now, leaseMs) });
}

export function renewTask(task: Task, owner: string, leaseMs: number, now: Date): Outcome<Task> {
  const held = heldBy(task, owner);
  return held.ok ? accept({ ...task, lease: leaseUntil(owner, now, leaseMs) }) : held;
}

export function completeTask(task: Task, owner: string, result: TaskResult): Outcome<Task> {
  const held = heldBy(task, owner);
  return held.ok ? accept({ ...task, status: 'completed', result }) : held;
}

export function failTask(task: Task, owner: string, error: string): Outcome<Task> {
  const held = heldBy(task, owner);
  return held.ok ? accept({ ...task, status: 'failed', result: { summary: error, error } }) : held;
}

/** Gives a claimed task back: pending, unowned, so anyone may claim it again. */
export function releaseTask(task: Task, owner: string, note: string | undefined, now: Date): Outcome<Task> {
  const held = heldBy(task, owner);
  if (!held.ok) return held;
  const released: Task = { ...task, status: 'pending', owner: null, lease: null };
  return accept(note ? withNote(released, owner, note, now) : released);
}

/**
 * A run that ended without finishing the task (no result, interrupted, its
 * worker gone): back to pending and unowned with one more attempt, or failed
 * once `maxAttempts` attempts were used, so no task loops for ever.
 */
export function retryOrFail(task: Task, by: string, reason: string, maxAttempts: number, now: Date): Task {
  const attempts = task.attempts + 1;
  const text = `${reason} (attempt ${attempts} of ${maxAttempts})`;
  const failed = attempts >= maxAttempts;
  const next: Task = {
    ...task,
    status: failed ? 'failed' : 'pending',
    owner: failed ? task.owner : null,
    lease: null,
    attempts,
    result: failed ? { summary: text, error: reason } : task.result,
  };
  return withNote(next, by, text, now);
}

export function cancelTask(task: Task, by: string, now: Date): Outcome<Task> {
  if (task.status === 'completed' || task.status === 'cancelled') {
    return refuse(`task "${task.id}" is already ${task.status}`);
  }
  return accept(withNote({ ...task, status: 'cancelled' }, by, 'cancelled', now));
}

export function noteTask(task: Task, by: string, text: string, now: Date): Outcome<Task> {
  return accept(withNote(task, by, text, now));
}

/** Whether a lease has run out at `now` (the daemon's candidates for `reclaimTask`). */
export const leaseExpired = (task: Task, now: Date): boolean =>
  task.status === 'in_progress' && task.lease !== null && Date.parse(task.lease.expiresAt) <= now.getTime();

/** In progress with no lease (a file written by hand, or copied): no lease will ever run out, so nothing would reclaim it. */
export const leaseMissing = (task: Task): boolean => task.status === 'in_progress' && task.lease === null;

/**
 * Unsticks a task in progress without a lease. Without an owner nobody can
 * be working on it (a claim always names one): back to pending at once. With
 * an owner, that owner gets a lease of `leaseMs` from now: a live owner
 * working on it renews it (a renewal needs only the status and the owner),
 * and if nobody does, it runs out and `reclaimTask` takes the task back like
 * any lost lease (one attempt counted).
 */
export function repairLeaseless(task: Task, now: Date, leaseMs: number): Outcome<Task> {
  if (!leaseMissing(task)) return refuse(`task "${task.id}" is not in progress without a lease`);
  if (task.owner === null) {
    const text = 'was in progress with no owner and no lease: back to pending';
    return accept(withNote({ ...task, status: 'pending' }, 'teamd', text, now));
  }
  const lease = leaseUntil(task.owner, now, leaseMs);
  const text = `was in progress for ${task.owner} with no lease: leased to ${task.owner} until ${lease.expiresAt}; back to pending if not renewed by then`;
  return accept(withNote({ ...task, lease }, 'teamd', text, now));
}

/**
 * A lease that ran out (its holder crashed or hung): the task returns to
 * pending with one more attempt, or fails once `maxAttempts` leases were lost.
 */
export function reclaimTask(task: Task, now: Date, maxAttempts: number): Outcome<Task> {
  if (!leaseExpired(task, now) || !task.lease) return refuse(`task "${task.id}" has no expired lease`);
  const attempts = task.attempts + 1;
  const text = `lease of ${task.lease.owner} expired at ${task.lease.expiresAt} (attempt ${attempts} of ${maxAttempts})`;
  if (attempts >= maxAttempts) {
    const failed: Task = {
      ...task,
      status: 'failed',
      attempts,
      result: { summary: text, error: 'lease expired' },
    };
    return accept(withNote(failed, 'teamd', text, now));
  }
  return accept(
    withNote({ ...task, status: 'pending', owner: null, lease: null, attempts }, 'teamd', text, now),
  );
}

/**
 * A failed or cancelled task, back to pending for another go: unowned, no
 * result, attempts from zero. Nothing is forgotten: a note records what the
 * task was and why (the old result's error), next to the notes it had.
 */
export function retryTask(task: Task, by: string, now: Date): Outcome<Task> {
  if (task.status !== 'failed' && task.status !== 'cancelled')
    return refuse(`task "${task.id}" is ${task.status}; only a failed or cancelled task can be retried`);
  const why = task.result?.error ?? task.result?.summary;
  const text = `retried (was ${task.status}${why ? `: ${why}` : ''}; ${task.attempts} lost lease(s) before)`;
  const retried: Task = { ...task, status: 'pending', owner: null, lease: null, result: null, attempts: 0 };
  return accept(withNote(retried, by, text, now));
}

/** The fields `editTask` may change; `undefined` leaves one as it is. */
export interface TaskEdit {
  subject?: string;
  description?: string;
  blockedBy?: string[];
  owner?: string | null;
  priority?: number;
}

/**
 * A person's edit of a task. A completed task is history, and a task in
 * progress keeps its holder and its dependencies (they decided when it could
 * start); anything else may change. The store checks the new `blockedBy`.
 */
export function editTask(task: Task, edit: TaskEdit, by: string, now: Date): Outcome<Task> {
  if (task.status === 'completed') return refuse(`task "${task.id}" is completed; it cannot be edited`);
  if (task.status === 'in_progress' && (edit.owner !== undefined || edit.blockedBy !== undefined))
    return refuse(`task "${task.id}" is in progress by ${task.owner}: its owner and blocked-by cannot change now`);
  const changed = Object.entries(edit)
    .filter(([, v]) => v !== undefined)
    .map(([k]) => k);
  if (!changed.length) return refuse('nothing to change: give at least one field');
  const next: Task = { ...task, ...Object.fromEntries(changed.map((k) => [k, edit[k as keyof TaskEdit]])) };
  return accept(withNote(next, by, `edited ${changed.join(', ')}`, now));
}
