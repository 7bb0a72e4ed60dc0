import { z } from 'zod';
import { isFinished } from '../../store/tasks/slim.js';
import type { Task } from '../../store/types.js';
import { defineTool, type ToolContext, type ToolOutput } from '../../tools/types.js';
import { sentSchema } from './sent-schema.js';
import { teamServices } from './services.js';

/** Said of a finished task on a teammate's board copy, which keeps no description or notes of it. */
export const FINISHED_BODY_NOTE = 'finished: its description and notes are in its file, not in this copy of the board';

export const formatTaskLine = (t: Task, blockers: string[]): string => {
  const owner = t.owner ? ` @${t.owner}` : '';
  const waiting = t.status === 'pending' && blockers.length ? ` — waiting for ${blockers.join(', ')}` : '';
  return `${t.id} [${t.status}]${owner} ${t.subject}${waiting}`;
};

/** One task in full, with the ids it still waits for (what `task_get` answered). */
export function showTask(id: string, ctx: ToolContext): ToolOutput {
  const { tasks } = teamServices(ctx);
  const task = tasks.get(id);
  if (!task) {
    const known = tasks.list().map((t) => t.id).slice(0, 50);
    return { content: `No task "${id}". Known ids: ${known.join(', ') || '(none)'}`, isError: true };
  }
  const body = !tasks.keepsFinishedBodies && isFinished(task) ? { bodyNotKept: FINISHED_BODY_NOTE } : {};
  return { content: JSON.stringify({ ...task, waitingFor: tasks.blockers(task.id), ...body }, null, 2) };
}

const ListSchema = z.strictObject({
  status: z.enum(['pending', 'in_progress', 'completed', 'failed', 'cancelled']).optional(),
  id: z.string().optional(),
});

export const taskListTool = defineTool({
  name: 'task_list',
  // the board's lines show the statuses a filter takes
  description: 'The board (or one status); with id, one task in full.',
  inputSchema: ListSchema,
  inputJsonSchema: sentSchema(ListSchema, ['status', 'id']),
  isReadOnly: () => true,
  isConcurrencySafe: () => true,
  run: async (input, ctx) => {
    if (input.id !== undefined) return showTask(input.id, ctx);
    const { tasks } = teamServices(ctx);
    const list = tasks.list(input.status ? { status: input.status } : undefined);
    if (list.length === 0) return { content: 'No tasks.' };
    return { content: list.map((t) => formatTaskLine(t, tasks.blockers(t.id))).join('\n') };
  },
});
