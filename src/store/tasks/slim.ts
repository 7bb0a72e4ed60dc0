/**
 * What a teammate's copy of the board keeps of a finished task. A teammate
 * claims live work; of a completed or cancelled task it needs the status (a
 * `blockedBy` naming it), the owner and subject (the board's lines), the
 * result (a dependant's prompt lists its blockers' summaries) and the
 * metadata (a merge handed on). The description and the notes, a task's
 * body, stay in its file: four teammates each held ~1,000 finished tasks'
 * bodies, a copy each (issue 24, docs/DECISIONS.md "A teammate's board copy").
 */
import type { Task } from '../types.js';
import { ARCHIVABLE } from './archive.js';

/** True for a task whose body the copy drops (it is finished and had one). */
export const isFinished = (task: Task): boolean => ARCHIVABLE.has(task.status);

/** `task` as a teammate's copy keeps it: a finished task without its description and notes; anything else as it is. */
export function withoutFinishedBody(task: Task): Task {
  if (!isFinished(task) || (task.description === '' && task.notes.length === 0)) return task;
  return { ...task, description: '', notes: [] };
}
