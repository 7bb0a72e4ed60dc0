/** The board: list, get, create, update, cancel, retry — the store calls `teamd task …` makes. */
import { z } from 'zod';
import type { TaskStore } from '../store/tasks/store.js';
import { NewTaskSchema } from '../store/tasks/types.js';
import { IdSchema, TaskStatusSchema, type Outcome, type Task } from '../store/types.js';
import { openTasks } from './stores.js';
import { defineMcpTool, ok, refuse, selfOf, type McpScope, type ToolReply } from './types.js';

const Id = z.strictObject({ id: IdSchema });

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

export const taskList = defineMcpTool({
  name: 'task_list',
  description: 'The board: tasks with status, owner, readiness (under --as: that agent\'s tasks).',
  input: z.strictObject({ status: TaskStatusSchema.optional() }),
  readOnly: true,
  run: async (input, scope) => {
    const store = await openTasks(scope);
    const owner = scope.as === null ? {} : { owner: scope.as };
    const tasks = store.list({ ...owner, ...(input.status ? { status: input.status } : {}) });
    return ok(tasks.map((t) => rowOf(store, t)));
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
  input: NewTaskSchema.omit({ metadata: true }),
  run: async (input, scope) => {
    const store = await openTasks(scope);
    const created = await store.create(input);
    return created.ok ? ok(rowOf(store, created.value)) : refuse(created.error);
  },
});

export const taskUpdate = defineMcpTool({
  name: 'task_update',
  description: 'Edit a task that is not completed: subject, description, blockedBy, owner (null: anyone), priority.',
  input: NewTaskSchema.pick({ subject: true, description: true, blockedBy: true, owner: true, priority: true })
    .partial()
    .extend({ id: IdSchema }),
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
