import { z } from 'zod';
import { defineTool } from '../../tools/types.js';
import { teamServices } from './services.js';

export const taskGetTool = defineTool({
  name: 'task_get',
  description: 'One task in full.',
  inputSchema: z.strictObject({ id: z.string() }),
  isReadOnly: () => true,
  isConcurrencySafe: () => true,
  run: async (input, ctx) => {
    const { tasks } = teamServices(ctx);
    const task = tasks.get(input.id);
    if (!task) {
      const known = tasks.list().map((t) => t.id).slice(0, 50);
      return { content: `No task "${input.id}". Known ids: ${known.join(', ') || '(none)'}`, isError: true };
    }
    return { content: JSON.stringify({ ...task, waitingFor: tasks.blockers(task.id) }, null, 2) };
  },
});
