/**
 * Which finished tasks leave the live board for `.tasks/archive/`: those
 * unchanged for `history.archiveTasksAfterMs`, and — so that a burst of work
 * cannot grow the board, and with it the lead's memory, every teammate's copy
 * of the index and every reader of `.tasks/` — the oldest beyond the newest
 * `history.keepFinishedTasks`. A task whose merge is still open (queued,
 * merging, refused) stays: the merge queue and the person reviewing it work
 * on the live board.
 */
import { ARCHIVABLE } from './archive.js';
import type { Task } from '../types.js';

export interface HotBoardRule {
  /** Finished tasks unchanged since before this time (ms) leave. */
  before: number;
  /** At most this many finished tasks stay (the newest). */
  keep: number;
  /** Ids whose merge is still open: they stay whatever their age. */
  held: ReadonlySet<string>;
}

/** The tasks to move, each with the `updatedAt` it was picked at (a task changed since is not moved). */
export function finishedToArchive(tasks: readonly Task[], rule: HotBoardRule): Map<string, string> {
  const finished = tasks
    .filter((t) => ARCHIVABLE.has(t.status) && !rule.held.has(t.id))
    .sort((a, b) => b.updatedAt.localeCompare(a.updatedAt) || a.id.localeCompare(b.id));
  const picked = new Map<string, string>();
  finished.forEach((t, rank) => {
    if (rank >= rule.keep || Date.parse(t.updatedAt) < rule.before) picked.set(t.id, t.updatedAt);
  });
  return picked;
}

/** When a lead should archive between its periodic gc runs: the board holds this many finished tasks. */
export const overflowAt = (keep: number): number => keep + Math.max(10, Math.ceil(keep / 20));
