/** The task store's public surface. */
export { TaskStore } from './store.js';
export { NewTaskSchema, TaskStoreOptionsSchema } from './types.js';
export type {
  NewTask,
  RefreshResult,
  TaskError,
  TaskFilter,
  TaskMutation,
  TaskStoreOptions,
} from './types.js';
export { canMove, checkChange } from './transitions.js';
export { leaseExpired } from './lifecycle.js';
export { cycleThrough, findCycles } from './graph.js';
export { readyOrder } from './task-index.js';
export type { TaskChangeNotice } from './task-index.js';
