import { z } from 'zod';
import { defineTool, type AnyTool, type ToolContext, type ToolOutput } from '../../tools/types.js';
import { sentSchema } from './sent-schema.js';
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
  blockedBy: z.array(z.string()).optional(),
  owner: z.string().nullable().optional(),
  priority: z.number().int().optional(),
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

const TEAMMATE =
  'New task (subject) or change task id (status pending/cancelled/failed). Yours completes with your final answer, or: failed, reason.';
const LEAD = 'New task (subject; priority: lower first) or change task id (status pending/cancelled/failed, owner).';
const TEAMMATE_FIELDS = ['id', 'subject', 'description', 'blockedBy', 'status', 'reason'];

/**
 * The lead is offered every field; a teammate is not offered `owner` and
 * `priority` (the lead's planning), which its task_write still accepts.
 */
function taskWriteFor(lead: boolean): AnyTool {
  return defineTool({
    name: 'task_write',
    description: lead ? LEAD : TEAMMATE,
    inputSchema: TaskSchema,
    inputJsonSchema: sentSchema(TaskSchema, lead ? Object.keys(TaskSchema.shape) : TEAMMATE_FIELDS),
    isReadOnly: () => false,
    isConcurrencySafe: () => false,
    run: async (input: TaskInput, ctx) => write(input, ctx),
  });
}

function write(input: TaskInput, ctx: ToolContext): Promise<ToolOutput> | ToolOutput {
  const intent = taskIntent(input);
  const { id, subject, description, blockedBy, owner, priority, status, reason } = input;
  if (intent === 'create') {
    const fields = { id, description, blockedBy, owner: owner ?? undefined, priority };
    return createTask({ subject: subject!, ...definedOnly(fields) }, ctx);
  }
  if (intent === 'change') return changeTask({ id: id!, ...definedOnly({ status, owner, addBlockedBy: blockedBy, reason }) }, ctx);
  return refuse(`Task not changed: ${intent}`);
}

/** One object each, so its JSON Schema is made once. */
export const TASK_WRITE = { lead: taskWriteFor(true), teammate: taskWriteFor(false) };

/** The fields that were given (the stores tell an absent field from an undefined one). */
function definedOnly<T extends Record<string, unknown>>(fields: T): Partial<T> {
  return Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)) as Partial<T>;
}
