import { z } from 'zod';
import { defineTool } from '../../tools/types.js';
import { teamServices } from './services.js';

export const taskCreateTool = defineTool({
  name: 'task_create',
  description:
    'Create a task on the team board (.tasks/<id>.json). Use blockedBy to list task ids that must be completed first; ' +
    'an unknown id or a dependency cycle is refused. Optionally give it to one teammate with owner.',
  inputSchema: z.strictObject({
    subject: z.string().min(1).describe('One line: what must be done'),
    description: z.string().optional().describe('Details, acceptance criteria'),
    id: z.string().optional().describe('A readable id (letters, digits, . _ -); generated when absent'),
    blockedBy: z.array(z.string()).optional().describe('Ids of tasks that must complete first'),
    owner: z.string().optional().describe('The only teammate who may claim it'),
    priority: z.number().int().optional().describe('Lower runs first (default 0)'),
  }),
  isReadOnly: () => false,
  isConcurrencySafe: () => false,
  run: async (input, ctx) => {
    const { tasks, beforeCreate } = teamServices(ctx);
    const refused = await beforeCreate?.(input);
    if (refused) return { content: `Task not created: a TaskCreated hook refused it: ${refused}`, isError: true };
    const created = await tasks.create(input);
    if (!created.ok) return { content: `Task not created: ${created.error}`, isError: true };
    const t = created.value;
    const deps = t.blockedBy.length ? ` (blocked by ${t.blockedBy.join(', ')})` : '';
    return { content: `Created task ${t.id}: ${t.subject}${deps}`, summary: `created ${t.id}` };
  },
});
