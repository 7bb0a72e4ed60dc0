import type { LockOptions } from '../lock.js';
import { describeInputError } from '../problems.js';
import type { Task } from '../types.js';
import { AgentNameSchema } from '../types.js';
import { claimTask } from './lifecycle.js';
import type { TaskBackend } from './task-files.js';
import type { TaskIndex } from './task-index.js';
import { refused, type TaskResultOf, type TaskWriter } from './task-writer.js';

/** What claiming needs from the store. */
export interface ClaimContext {
  files: TaskBackend;
  index: TaskIndex;
  writer: TaskWriter;
  now: () => Date;
}

/**
 * Compare-and-set: under the task's lock, re-read it and its blockers and take
 * it only if it is ready for `owner`. Two claimers in any processes never both win.
 */
export async function claimOne(
  ctx: ClaimContext,
  id: string,
  owner: string,
  leaseMs: number,
  lock?: LockOptions,
): Promise<TaskResultOf<Task>> {
  const name = AgentNameSchema.safeParse(owner);
  if (!name.success) return refused(`owner: ${describeInputError(name.error)}`);
  const early = takenElsewhere(ctx, id, owner);
  if (early) return early;
  // Not forced to disk: a claim lost in a power cut leaves the task unclaimed, to be claimed again.
  return ctx.writer.change(
    id,
    async (fresh) => claimTask(fresh, owner, leaseMs, ctx.now(), await openBlockers(ctx, fresh)),
    lock,
    false,
  );
}

/**
 * The first ready task `owner` may take, claimed, or null when none is left.
 * Tasks whose lock is held right now are skipped at first (another claimer is
 * most likely taking them) and only waited for at the end.
 */
export async function claimFirstReady(
  ctx: ClaimContext,
  owner: string,
  leaseMs: number,
): Promise<TaskResultOf<Task | null>> {
  const busy: string[] = [];
  const tried = new Set<string>();
  // The index changes while a claim awaits: ask it for the first untried ready task each time.
  for (let task = ctx.index.firstReady(owner, tried); task; task = ctx.index.firstReady(owner, tried)) {
    tried.add(task.id);
    const claimed = await claimOne(ctx, task.id, owner, leaseMs, { retries: 0 });
    if (claimed.ok) return claimed;
    if (claimed.error.reason === 'busy') busy.push(task.id);
  }
  for (const id of busy) {
    const claimed = await claimOne(ctx, id, owner, leaseMs);
    if (claimed.ok) return claimed;
  }
  return { ok: true, value: null };
}

/**
 * A lock-free look first: a task already taken or assigned to someone else is
 * refused without locking, so the losers of a race learn it cheaply (a glance
 * at two fields, no validation: claimers all start at the first ready task,
 * and most looks are lost races). A task that looks claimable is checked
 * again, fully, under the lock.
 */
function takenElsewhere(ctx: ClaimContext, id: string, owner: string): TaskResultOf<never> | undefined {
  const seen = ctx.files.peekHolder(id);
  if (seen === null) return undefined;
  if (seen.status !== 'pending') return refused(`task "${id}" is ${seen.status}, not pending`);
  if (seen.owner !== null && seen.owner !== owner) return refused(`task "${id}" is assigned to ${seen.owner}`);
  return undefined;
}

/** Blockers not completed, re-read from disk unless the index already saw them complete (a final state). */
async function openBlockers(ctx: ClaimContext, task: Task): Promise<string[]> {
  const open: string[] = [];
  for (const blocker of task.blockedBy) {
    if (ctx.index.get(blocker)?.status === 'completed') continue;
    // A plain read: normalising would take the blocker's lock while we hold this task's.
    const fresh = await ctx.files.read(blocker);
    if (fresh.kind === 'ok') ctx.index.upsert(fresh.task);
    // Gone from `.tasks/`: archived, and a completed archived task stays done (archive.ts).
    if (fresh.kind === 'missing' && ctx.index.archivedStatus(blocker) === 'completed') continue;
    if (fresh.kind !== 'ok' || fresh.task.status !== 'completed') open.push(blocker);
  }
  return open;
}
