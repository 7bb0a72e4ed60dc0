import type { FileProblem } from '../types.js';
import { findCycles } from './graph.js';
import type { TaskIndex } from './task-index.js';

/**
 * Everything wrong with `.tasks/` as the index sees it: files that could not be
 * read, `blockedBy` ids naming no task (of a task that still waits: not a
 * completed or cancelled one), and dependency cycles (each member's
 * file is named, since any of them may be the one to fix).
 */
export function taskProblems(index: TaskIndex, label: (id: string) => string): FileProblem[] {
  return [...index.fileProblems(), ...danglingProblems(index, label), ...cycleProblems(index, label)];
}

function danglingProblems(index: TaskIndex, label: (id: string) => string): FileProblem[] {
  const problems: FileProblem[] = [];
  for (const task of index.all()) {
    // A finished task no longer waits for anything: a blocker removed since is no problem.
    if (task.status === 'completed' || task.status === 'cancelled') continue;
    task.blockedBy.forEach((blocker, i) => {
      if (!index.get(blocker) && index.archivedStatus(blocker) === undefined)
        problems.push({ file: label(task.id), field: `blockedBy.${i}`, message: `no task "${blocker}"` });
    });
  }
  return problems;
}

function cycleProblems(index: TaskIndex, label: (id: string) => string): FileProblem[] {
  return findCycles(index.graph()).flatMap((cycle) => {
    const members = [...cycle].sort();
    return members.map((id) => ({
      file: label(id),
      field: 'blockedBy',
      message: `dependency cycle among ${members.join(', ')}`,
    }));
  });
}
