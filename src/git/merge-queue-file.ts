import { readJson } from '../store/json-file.js';
import { STATE_LIMITS } from '../store/state-file.js';
import { join } from 'node:path';
import { z } from 'zod';
import { writeFileAtomic } from '../store/atomic.js';
import {
  MergeQueueFileSchema,
  type MergeEntry,
  type MergeEntryState,
  type MergeQueueFile,
  type Outcome,
} from './types.js';

/** `.team/state/merge-queue.json`: read by `teamd merge-queue` and a restarted daemon. */
export const mergeQueuePath = (repoRoot: string): string =>
  join(repoRoot, '.team', 'state', 'merge-queue.json');

/** Reads and validates the queue file; a missing file is an empty queue. Errors name the file and field. */
export async function readMergeQueueFile(
  file: string,
  integrationBranch: string,
): Promise<Outcome<MergeQueueFile>> {
  // The safe reader: a FIFO, a device or secret link, a huge or deep file is refused unread.
  const read = await readJson(file, file, STATE_LIMITS.mergeQueue);
  if (read.kind === 'missing') return { ok: true, value: { version: 1, integrationBranch, entries: [] } };
  if (read.kind === 'invalid') return { ok: false, error: `${file}: ${read.problem.message}` };
  const parsed = MergeQueueFileSchema.safeParse(read.value);
  if (!parsed.success) return { ok: false, error: `${file}: ${z.prettifyError(parsed.error)}` };
  return { ok: true, value: parsed.data };
}

export async function writeMergeQueueFile(file: string, data: MergeQueueFile): Promise<void> {
  await writeFileAtomic(file, JSON.stringify(data, null, 2) + '\n');
}

/** The lifecycle of an entry; every state change goes through `moveEntry`. */
const ALLOWED: Record<MergeEntryState, readonly MergeEntryState[]> = {
  queued: ['merging', 'cancelled'],
  // Back to queued: a crash recovered, a shutdown mid-merge, or the integration branch moved under us.
  // Cancelled: the task was cancelled and its merge aborted before the integration branch moved.
  merging: ['merged', 'refused', 'queued', 'cancelled'],
  // Enqueued again: the owner fixed a refusal, or a reopened task has new work.
  refused: ['queued', 'cancelled'],
  merged: ['queued'],
  // Final: a cancelled task is never merged.
  cancelled: [],
};

export function canMove(from: MergeEntryState, to: MergeEntryState): boolean {
  return ALLOWED[from].includes(to);
}

/** A copy of `entry` in state `to`; an illegal transition is a programmer error. */
export function moveEntry(
  entry: MergeEntry,
  to: MergeEntryState,
  patch: Partial<MergeEntry> = {},
): MergeEntry {
  if (!canMove(entry.state, to)) {
    throw new Error(`merge queue: task ${entry.taskId} cannot go from ${entry.state} to ${to}`);
  }
  return { ...entry, ...patch, state: to, updatedAt: new Date().toISOString() };
}

/** Drops the oldest merged or cancelled entries beyond `limit`; queued, merging and refused ones always stay. */
export function trimHistory(entries: MergeEntry[], limit: number): MergeEntry[] {
  const merged = entries.filter((e) => e.state === 'merged' || e.state === 'cancelled');
  const excess = new Set(merged.slice(0, Math.max(0, merged.length - limit)));
  return entries.filter((e) => !excess.has(e));
}
