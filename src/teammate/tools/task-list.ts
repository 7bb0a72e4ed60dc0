import { z } from 'zod';
import type { Task } from '../../store/types.js';
import { defineTool } from '../../tools/types.js';
import { teamServices } from './services.js';

export const formatTaskLine = (t: Task, blockers: string[]): string => {
  const owner = t.owner ? ` @${t.owner}` : '';
  const waiting = t.status === 'pending' && blockers.length ? ` — waiting for ${blockers.join(', ')}` : '';
  return `${t.id} [${t.status}]${owner} ${t.subject}${waiting}`;
};

export const taskListTool = defineTool({
  name: 'task_list',
  description: 'The team board: tasks, status, owner, blockers.',
  inputSchema: z.strictObject({
    status: z.enum(['pending', 'in_progress', 'completed', 'failed', 'cancelled']).optional(),
  }),
  isReadOnly: () => true,
  isConcurrencySafe: () => true,
  run: async (input, ctx) => {
    const { tasks } = teamServices(ctx);
    const list = tasks.list(input.status ? { status: input.status } : undefined);
    if (list.length === 0) return { content: 'No tasks.' };
    return { content: list.map((t) => formatTaskLine(t, tasks.blockers(t.id))).join('\n') };
  },
});
