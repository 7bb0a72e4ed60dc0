/**
 * `todo_write`: the agent's own plan, kept in the session. Each call replaces
 * the whole list, so the model always states the plan as it now stands.
 */
import { z } from 'zod';
import { defineTool, type ToolContext } from './types.js';

export const TodoItemSchema = z.strictObject({
  content: z.string().min(1).describe('"Fix the test"'),
  status: z.enum(['pending', 'in_progress', 'completed']),
  activeForm: z
    .string()
    .optional()
    .describe('"Fixing the test"'),
});
export type TodoItem = z.infer<typeof TodoItemSchema>;

const TodoWriteInput = z.strictObject({
  todos: z.array(TodoItemSchema),
});

/** The session key holding the current list (TodoItem[]). */
export const SESSION_TODOS_KEY = 'todos';

export const todoWriteTool = defineTool({
  name: 'todo_write',
  description: [
    'Your plan of several steps: the whole list each time, one item in_progress.',
  ].join('\n'),
  inputSchema: TodoWriteInput,
  // It changes only the agent's own notes, never the world: no permission needed, allowed in plan mode.
  isReadOnly: () => true,
  isConcurrencySafe: () => false,
  run: async (input, ctx) => {
    ctx.session.set(SESSION_TODOS_KEY, input.todos);
    const done = input.todos.filter((t) => t.status === 'completed').length;
    const warning =
      input.todos.filter((t) => t.status === 'in_progress').length > 1
        ? '\nNote: more than one item is in progress; finish one before starting the next.'
        : '';
    return {
      content: `Todo list updated (${done}/${input.todos.length} completed):\n${renderTodos(input.todos)}${warning}`,
      summary: `todos: ${done}/${input.todos.length} completed`,
    };
  },
});

const MARKS = { pending: '[ ]', in_progress: '[>]', completed: '[x]' } as const;

export function renderTodos(todos: TodoItem[]): string {
  if (todos.length === 0) return '(empty)';
  return todos.map((t) => `${MARKS[t.status]} ${t.content}`).join('\n');
}

/** The agent's current plan (empty when it has none). */
export function currentTodos(ctx: Pick<ToolContext, 'session'>): TodoItem[] {
  const todos = ctx.session.get(SESSION_TODOS_KEY);
  return Array.isArray(todos) ? (todos as TodoItem[]) : [];
}
