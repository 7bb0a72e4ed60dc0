import { z } from 'zod';
import type { ToolContext, ToolOutput } from '../../tools/types.js';
import { teamServices } from './services.js';

/** What a new task is made of (`task_write` with a subject; the old `task_create`). */
export const CreateSchema = z.strictObject({
  subject: z.string().min(1),
  description: z.string().optional(),
  id: z.string().optional(),
  blockedBy: z.array(z.string()).optional().describe('Task ids to finish first'),
  owner: z.string().optional(),
  priority: z.number().int().optional().describe('Lower first'),
});
export type NewTask = z.infer<typeof CreateSchema>;

/** Adds a task to the board, after the TaskCreated hooks agree. */
export async function createTask(input: NewTask, ctx: ToolContext): Promise<ToolOutput> {
  const { tasks, beforeCreate } = teamServices(ctx);
  const refused = await beforeCreate?.(input);
  if (refused) return { content: `Task not created: a TaskCreated hook refused it: ${refused}`, isError: true };
  const created = await tasks.create(input);
  if (!created.ok) return { content: `Task not created: ${created.error}`, isError: true };
  const t = created.value;
  const deps = t.blockedBy.length ? ` (blocked by ${t.blockedBy.join(', ')})` : '';
  return { content: `Created task ${t.id}: ${t.subject}${deps}`, summary: `created ${t.id}` };
}
