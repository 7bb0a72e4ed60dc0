import { z } from 'zod';
import { defineTool, type ToolOutput } from '../../tools/types.js';
import { createTask } from './task-create.js';
import { changeTask } from './task-update.js';

/**
 * One tool for the board's writes: with a `subject` it creates a task (the
 * old `task_create`), without one it changes task `id` (the old
 * `task_update`). One schema instead of two is sent in every request.
 */
const TaskSchema = z.strictObject({
  id: z.string().optional(),
  subject: z.string().min(1).optional(),
  description: z.string().optional(),
  blockedBy: z.array(z.string()).optional().describe('Task ids to finish first'),
  owner: z.string().nullable().optional(),
  priority: z.number().int().optional().describe('Lower first'),
  status: z.enum(['cancelled', 'failed', 'pending']).optional(),
  reason: z.string().optional(),
});
type TaskInput = z.infer<typeof TaskSchema>;

const refuse = (content: string): ToolOutput => ({ content, isError: true });

/** Which of create and change the input asks for, or why it is neither. */
export function taskIntent(input: TaskInput): 'create' | 'change' | string {
  if (input.subject !== undefined) {
    if (input.status !== undefined || input.reason !== undefined)
      return 'status and reason change an existing task: create it first, then change it by id';
    return 'create';
  }
  if (input.id === undefined) return 'give a subject to create a task, or the id of the task to change';
  if (input.description !== undefined || input.priority !== undefined)
    return 'description and priority are set when a task is created (give a subject)';
  return 'change';
}

export const taskWriteTool = defineTool({
  name: 'task_write',
  description:
    'Add a task (give subject) or change task id. Yours completes with your final answer; if you cannot do it, set it "failed" with a reason.',
  inputSchema: TaskSchema,
  isReadOnly: () => false,
  isConcurrencySafe: () => false,
  run: async (input, ctx) => {
    const intent = taskIntent(input);
    const { id, subject, description, blockedBy, owner, priority, status, reason } = input;
    if (intent === 'create') {
      const fields = { id, description, blockedBy, owner: owner ?? undefined, priority };
      return createTask({ subject: subject!, ...definedOnly(fields) }, ctx);
    }
    if (intent === 'change') return changeTask({ id: id!, ...definedOnly({ status, owner, addBlockedBy: blockedBy, reason }) }, ctx);
    return refuse(`Task not changed: ${intent}`);
  },
});

/** The fields that were given (the stores tell an absent field from an undefined one). */
function definedOnly<T extends Record<string, unknown>>(fields: T): Partial<T> {
  return Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)) as Partial<T>;
}
