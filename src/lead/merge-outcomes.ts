/**
 * What the lead does with the merge queue's verdicts, as functions of the
 * task file: the guarded ref move that completes a task (and loses to a
 * cancel), and a refusal that sends the task back — a bounded number of
 * times, after which the task fails with the last output.
 */
import { join, relative } from 'node:path';
import type { TeamConfig } from '../config/schema.js';
import type { MergeTips, RefMoveGuard, RefMoveOutcome, Refusal } from '../git/types.js';
import type { TeamEvent } from '../observe/types.js';
import type { MailboxStore } from '../store/mailbox/index.js';
import { writeFileAtomic } from '../store/atomic.js';
import type { TaskStore } from '../store/tasks/index.js';
import type { Outcome, Task } from '../store/types.js';
import type { MergeHandoff } from '../teammate/task-finish.js';
import { holdForPerson } from './protected-review.js';
import { awaitingMerge } from './reconcile.js';

/** Refusal notes a task keeps (older ones are dropped; their outputs stay in files). */
export const KEPT_REFUSAL_NOTES = 3;
/** How much of a refusal's message goes into a note or a message; the rest is in the output file. */
const NOTE_CHARS = 1_500;
const REFUSAL_PREFIX = 'Merge refused';

export const handoffOf = (task: Task): MergeHandoff | undefined =>
  task.metadata.merge as MergeHandoff | undefined;

/** The task, completed by the merge that moved the integration branch to `mergeCommit`. */
export function completedByMerge(task: Task, mergeCommit: string): Task {
  const handoff = handoffOf(task);
  const result = {
    summary: handoff?.summary ?? 'merged',
    filesTouched: handoff?.filesTouched,
    branch: handoff?.branch,
    commit: handoff?.commit ?? undefined,
    mergeCommit,
  };
  const merge = { ...handoff, state: 'merged', mergeCommit };
  return { ...task, status: 'completed', lease: null, result, metadata: { ...task.metadata, merge } };
}

/** Whether the task is already completed by this merge (the guard wrote it). */
export const completedAs = (task: Task | undefined, mergeCommit: string): boolean =>
  task?.status === 'completed' &&
  (handoffOf(task) as { mergeCommit?: string } | undefined)?.mergeCommit === mergeCommit;

/**
 * The merge queue's last step, under the task's lock: a task that no longer
 * awaits its merge (cancelled, or changed by a person) is withdrawn and the
 * integration branch does not move; otherwise it moves and the task is
 * completed in the same locked change (`completed` is told at once, so the
 * event follows the file closely).
 */
export function taskRefGuard(
  tasks: TaskStore,
  completed: (task: Task) => void = () => undefined,
  personNeeded: (task: Task, merge?: MergeTips) => Promise<string | null> = async () => null,
): RefMoveGuard {
  return async (taskId, move, merge) => {
    let outcome: RefMoveOutcome | null = null;
    const written = await tasks.updateLocked(taskId, async (t): Promise<Outcome<Task>> => {
      if (!awaitingMerge(t)) {
        outcome = { kind: 'withdrawn', reason: `task ${taskId} is ${t.status}; not merged` };
        return { ok: false, error: outcome.reason };
      }
      // The last line (an entry queued before this lead, say): changes that steer the agents wait for a person.
      // The very merge commit is checked: the branch may have moved since the merge was made.
      const why = await personNeeded(t, merge);
      if (why !== null) {
        const held = holdForPerson(t, why, new Date());
        outcome = { kind: 'withdrawn', reason: `task ${taskId} waits for a person: ${why}` };
        return held.ok ? held : { ok: false, error: outcome.reason };
      }
      const moved = await move();
      if (!moved.ok) {
        outcome = { kind: 'error', error: moved.error };
        return { ok: false, error: moved.error };
      }
      outcome = { kind: 'moved' };
      return { ok: true, value: completedByMerge(t, moved.value) };
    });
    if (written.ok && (outcome as RefMoveOutcome | null)?.kind === 'moved') completed(written.value);
    // No outcome: the lock or the read failed before anything moved (a missing file is withdrawn).
    return outcome ?? (written.ok ? { kind: 'moved' } : missingOrBusy(written.error));
  };
}

const missingOrBusy = (error: string): RefMoveOutcome =>
  /^no task /.test(error) ? { kind: 'withdrawn', reason: error } : { kind: 'error', error };

/** Where the full output of one refusal is kept: `.team/state/outputs/<task>/merge-<attempt>.txt`. */
export const refusalOutputPath = (repoRoot: string, taskId: string, attempt: number): string =>
  join(repoRoot, '.team', 'state', 'outputs', taskId, `merge-${attempt}.txt`);

/** Writes the refusal's full text; returns the path relative to the repository (or null if it failed). */
export async function keepRefusalOutput(
  repoRoot: string,
  taskId: string,
  attempt: number,
  refusal: Refusal,
): Promise<string | null> {
  const file = refusalOutputPath(repoRoot, taskId, attempt);
  const body = `${refusal.message}\n${refusal.outputTail && !refusal.message.includes(refusal.outputTail) ? `\n${refusal.outputTail}\n` : ''}`;
  try {
    await writeFileAtomic(file, body);
    return relative(repoRoot, file);
  } catch {
    return null;
  }
}

export const clip = (text: string, max = NOTE_CHARS): string =>
  text.length > max ? `${text.slice(0, max)}… (${text.length - max} more characters)` : text;

/**
 * A refused merge counts an attempt. Below `maxAttempts` the task goes back
 * to its owner (pending, assigned); at `maxAttempts` it fails with the last
 * output. Either way only the last few refusal notes are kept.
 */
export function refusedTask(
  task: Task,
  agent: string,
  refusal: Refusal,
  maxAttempts: number,
  outputFile: string | null,
  now: Date,
): Task {
  const attempts = task.attempts + 1;
  const where = outputFile ? `\nFull output: ${outputFile}` : '';
  const text = `${REFUSAL_PREFIX} (${refusal.reason}, attempt ${attempts} of ${maxAttempts}): ${clip(refusal.message)}${where}`;
  const notes = keepRecentRefusals([...task.notes, { ts: now.toISOString(), by: 'lead', text }]);
  const merge = { ...(task.metadata.merge as object), state: 'refused', reason: refusal.reason };
  const base: Task = { ...task, attempts, lease: null, notes, metadata: { ...task.metadata, merge } };
  if (attempts < maxAttempts) return { ...base, status: 'pending', owner: agent };
  const summary = `merge refused ${attempts} times (${refusal.reason}); last: ${clip(refusal.message, 4_000)}${where}`;
  return {
    ...base,
    status: 'failed',
    owner: agent,
    result: { summary, error: `merge refused (${refusal.reason})` },
  };
}

/** Drops all but the last `KEPT_REFUSAL_NOTES` refusal notes; other notes stay. */
export function keepRecentRefusals(notes: Task['notes']): Task['notes'] {
  const refusals = notes.filter((n) => n.by === 'lead' && n.text.startsWith(REFUSAL_PREFIX));
  const drop = new Set(refusals.slice(0, Math.max(0, refusals.length - KEPT_REFUSAL_NOTES)));
  return notes.filter((n) => !drop.has(n));
}

export interface SendBackDeps {
  repoRoot: string;
  config: Pick<TeamConfig, 'maxAttempts'>;
  tasks: TaskStore;
  mailbox: MailboxStore;
  log: (e: TeamEvent) => void;
}

/** A refused merge: the event, the output kept, the task sent back (or failed at the bound), the owner told. */
export async function sendBack(
  deps: SendBackDeps,
  taskId: string,
  agent: string,
  refusal: Refusal,
): Promise<void> {
  deps.log({
    type: 'merge_refused',
    task: taskId,
    reason: refusal.reason,
    detail: refusal.message.slice(0, 2000),
  });
  const max = deps.config.maxAttempts;
  const attempt = (deps.tasks.get(taskId)?.attempts ?? 0) + 1;
  const file = await keepRefusalOutput(deps.repoRoot, taskId, attempt, refusal);
  const back = await deps.tasks.update(taskId, (t) =>
    t.status === 'in_progress'
      ? refusedTask(t, agent, refusal, max, file, new Date())
      : { ok: false, error: `task is ${t.status}` },
  );
  if (!back.ok) return;
  if (back.value.status === 'failed') {
    return deps.log({
      type: 'task_failed',
      task: taskId,
      agent,
      error: back.value.result?.summary ?? `merge refused ${back.value.attempts} times`,
    });
  }
  const where = file ? `\nFull output: ${file}` : '';
  const content = `Your task ${taskId} was not merged (${refusal.reason}; attempt ${back.value.attempts} of ${max}). It is back on the board for you:\n${clip(refusal.message, 4_000)}${where}`;
  await deps.mailbox.send({
    from: 'lead',
    to: agent,
    type: 'message',
    content,
    metadata: { task_id: taskId },
  });
}
