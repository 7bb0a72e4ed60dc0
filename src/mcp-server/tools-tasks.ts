/** The board: list, get, create, update, cancel, retry — the store calls `teamd task …` makes. */
import { z } from 'zod';
import type { TaskStore } from '../store/tasks/store.js';
import { TaskSchema, TaskStatusSchema, type Outcome, type Task } from '../store/types.js';
import { AgentName, Id as IdField, Int } from './fields.js';
import { openTasks } from './stores.js';
import { defineMcpTool, ok, refuse, selfOf, type McpScope, type ToolReply } from './types.js';

const Id = z.strictObject({ id: IdField });

/** The fields of a task a client sets (`NewTaskSchema`'s, with small schemas; the store checks them again). */
const TaskFields = {
  subject: TaskSchema.shape.subject,
  description: z.string().max(100_000).optional(),
  blockedBy: z.array(IdField).max(1000).optional(),
  owner: AgentName.nullable().optional(),
  priority: Int.optional(),
};

/** A row of the board: what a client needs to pick the next thing to look at. */
const rowOf = (store: TaskStore, t: Task) => ({
  id: t.id,
  status: t.status,
  owner: t.owner,
  subject: t.subject,
  ...(t.status === 'pending' ? { ready: store.isReady(t.id), waitingOn: store.blockers(t.id) } : {}),
});

/** Under `--as`, an agent changes only tasks that are its own or no one's. */
function mayChange(scope: McpScope, task: Task | undefined, id: string): string | null {
  if (!task) return `id: no task "${id}"`;
  if (scope.as !== null && task.owner !== null && task.owner !== scope.as)
    return `id: task "${id}" belongs to ${task.owner}; ${scope.as} may change only its own or unassigned tasks`;
  return null;
}

async function changeTask(scope: McpScope, id: string, change: (store: TaskStore) => Promise<Outcome<Task>>): Promise<ToolReply> {
  const store = await openTasks(scope);
  const refused = mayChange(scope, store.get(id), id);
  if (refused) return refuse(refused);
  const done = await change(store);
  return done.ok ? ok(rowOf(store, done.value)) : refuse(done.error);
}

/** Rows `task_list` returns when no `limit` is given: a big board is read a status at a time. */
const LIST_LIMIT = 200;

export const taskList = defineMcpTool({
  name: 'task_list',
  description: `The board: {total, tasks} with status, owner, readiness; at most limit (${LIST_LIMIT}) rows. Under --as: its tasks.`,
  input: z.strictObject({ status: TaskStatusSchema.optional(), limit: z.number().int().min(1).max(5000).optional() }),
  readOnly: true,
  run: async (input, scope) => {
    const store = await openTasks(scope);
    const owner = scope.as === null ? {} : { owner: scope.as };
    const tasks = store.list({ ...owner, ...(input.status ? { status: input.status } : {}) });
    return ok({ total: tasks.length, tasks: tasks.slice(0, input.limit ?? LIST_LIMIT).map((t) => rowOf(store, t)) });
  },
});

export const taskGet = defineMcpTool({
  name: 'task_get',
  description: 'One task in full (archived ones too), with what it waits on and what waits on it.',
  input: Id,
  readOnly: true,
  run: async ({ id }, scope) => {
    const store = await openTasks(scope);
    const found = store.find(id);
    if (!found) return refuse(`id: no task "${id}"`);
    const extra = { ready: store.isReady(id), waitingOn: store.blockers(id), dependents: store.dependents(id) };
    return ok({ ...found.task, ...extra, ...(found.archived ? { archived: true } : {}) });
  },
});

export const taskCreate = defineMcpTool({
  name: 'task_create',
  description: 'Add a task to .tasks/ (a running team picks it up); returns it.',
  input: z.strictObject({ ...TaskFields, id: IdField.optional() }),
  run: async (input, scope) => {
    const store = await openTasks(scope);
    const created = await store.create(input);
    return created.ok ? ok(rowOf(store, created.value)) : refuse(created.error);
  },
});

export const taskUpdate = defineMcpTool({
  name: 'task_update',
  description: 'Edit a task that is not completed: subject, description, blockedBy, owner (null: anyone), priority.',
  input: z.strictObject({ id: IdField, ...TaskFields, subject: TaskFields.subject.optional() }),
  run: async ({ id, ...edit }, scope) => changeTask(scope, id, (store) => store.edit(id, edit, selfOf(scope))),
});

export const taskCancel = defineMcpTool({
  name: 'task_cancel',
  description: 'Cancel a task that is not finished (wins over a merge in flight).',
  input: Id,
  run: async ({ id }, scope) => changeTask(scope, id, (store) => store.cancel(id, selfOf(scope))),
});

export const taskRetry = defineMcpTool({
  name: 'task_retry',
  description: 'Put a failed or cancelled task back to pending.',
  input: Id,
  run: async ({ id }, scope) => changeTask(scope, id, (store) => store.retry(id, selfOf(scope))),
});

export const TASK_TOOLS = [taskList, taskGet, taskCreate, taskUpdate, taskCancel, taskRetry];
