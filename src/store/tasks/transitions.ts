import { describeInputError } from '../problems.js';
import type { Outcome, Task, TaskStatus } from '../types.js';
import { TaskSchema } from '../types.js';

/**
 * The task lifecycle, in one place. Staying in a status is always allowed
 * (edits, notes, lease renewals).
 *
 *   pending ──claim──▶ in_progress ──complete──▶ completed
 *      │                 │  │  └──fail──▶ failed ──retry──▶ pending
 *      │                 │  └──release / lease expired──▶ pending
 *      └──cancel─▶ cancelled ◀──cancel──┘
 *                      └──retry──▶ pending
 *
 * A pending or failed task may also be failed or cancelled by the lead or a person.
 * `completed` is final; a person may retry a failed or cancelled task (`teamd task retry`).
 */
const NEXT: Record<TaskStatus, readonly TaskStatus[]> = {
  pending: ['in_progress', 'cancelled', 'failed'],
  in_progress: ['completed', 'failed', 'pending', 'cancelled'],
  failed: ['pending', 'cancelled'],
  completed: [],
  cancelled: ['pending'],
};

export const canMove = (from: TaskStatus, to: TaskStatus): boolean => from === to || NEXT[from].includes(to);

/**
 * Checks a whole change from `before` to `after`: the schema, the status edge,
 * what may never change (id, createdAt), and the lease invariants. A lease only
 * exists while in progress, so it is dropped when the task leaves that state.
 */
export function checkChange(before: Task, after: Task): Outcome<Task> {
  const parsed = TaskSchema.safeParse(after);
  if (!parsed.success) return { ok: false, error: describeInputError(parsed.error) };
  const next = parsed.data;
  if (next.id !== before.id || next.createdAt !== before.createdAt) {
    return { ok: false, error: 'id and createdAt cannot change' };
  }
  if (!canMove(before.status, next.status)) {
    return { ok: false, error: `task "${before.id}" cannot go from ${before.status} to ${next.status}` };
  }
  return checkLease(next.status === 'in_progress' ? next : { ...next, lease: null });
}

function checkLease(task: Task): Outcome<Task> {
  if (task.status !== 'in_progress') return { ok: true, value: task };
  if (!task.owner || !task.lease || task.lease.owner !== task.owner) {
    return {
      ok: false,
      error: `task "${task.id}" in progress needs an owner and a lease held by that owner`,
    };
  }
  return { ok: true, value: task };
}
