/**
 * How the screen is shared. The frame is one line shorter than the terminal:
 * ink redraws a frame that fills the screen by clearing it, which flickers.
 */
import { taskGraphLines } from './task-graph.js';
import type { DashboardState } from './types.js';

export interface Layout {
  width: number;
  teammates: number;
  tasks: number;
  bottom: number;
  left: number;
  right: number;
}

export function planLayout(
  state: Pick<DashboardState, 'teammates' | 'tasks'>,
  columns: number,
  rows: number,
): Layout {
  const width = Math.max(40, columns);
  const body = Math.max(8, rows - 1) - 2; // header and footer
  const teammates = Math.max(2, Math.min(1 + Math.max(1, state.teammates.length), Math.floor(body * 0.35)));
  const rest = body - teammates;
  const wanted = 1 + taskGraphLines(state.tasks, Number.MAX_SAFE_INTEGER, width).length;
  const bottomMin = Math.max(6, Math.floor(rest * 0.45));
  const tasks = Math.max(2, Math.min(wanted, rest - bottomMin));
  const left = Math.floor(width * 0.55);
  return { width, teammates, tasks, bottom: rest - tasks, left, right: width - left - 2 };
}
