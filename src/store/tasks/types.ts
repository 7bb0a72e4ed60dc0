/**
 * The task store's own contracts. A task file's shape is `TaskSchema` in
 * `../types.ts`; this file says what callers hand the store and what it hands back.
 */
import { z } from 'zod';
import { LockOptionsSchema, NowSchema } from '../options.js';
import type { TaskRead } from './task-files.js';
import type { FileProblem, Outcome, Task, TaskStatus } from '../types.js';
import { AgentNameSchema, IdSchema, MetadataSchema, TaskSchema } from '../types.js';

/**
 * What `create` accepts; only `subject` is required. Without `id` the store
 * makes a time-sortable one (`t-<time>-<random>`). Every `blockedBy` id must
 * name an existing task and must not close a cycle.
 * `priority`: the lowest value runs first (default 0); ties go to the older task.
 * `owner`: assigns the task, so only that agent may claim it.
 */
export const NewTaskSchema = z.strictObject({
  subject: TaskSchema.shape.subject,
  id: IdSchema.optional(),
  description: z.string().max(100_000).optional(),
  blockedBy: z.array(IdSchema).optional(),
  owner: AgentNameSchema.nullable().optional(),
  priority: z.number().int().optional(),
  metadata: MetadataSchema.optional(),
});
export type NewTask = z.input<typeof NewTaskSchema>;

/** What `edit` may change (see `editTask`); a field left out stays as it is. */
export const TaskEditSchema = NewTaskSchema.pick({
  subject: true,
  description: true,
  blockedBy: true,
  owner: true,
  priority: true,
}).partial();

/** Narrows `list`; fields combine with AND. */
export interface TaskFilter {
  status?: TaskStatus | readonly TaskStatus[];
  owner?: string | null;
}

/**
 * What an `update` mutator returns for the freshly re-read task: the changed
 * task, or `{ ok: false, error }` to refuse. The store then checks the change
 * (schema, legal status transition, lease invariants) before writing.
 */
export type TaskMutation = Task | Outcome<Task>;

/**
 * What `refresh` did with one file (the daemon calls it per watcher event).
 * `nowReady` lists the tasks that became ready through this change.
 */
export type RefreshResult =
  | { kind: 'updated'; task: Task; nowReady: string[] }
  | { kind: 'removed'; id: string; nowReady: string[] }
  | { kind: 'invalid'; problems: FileProblem[] }
  | { kind: 'ignored'; reason: string };

/** Why a change was refused; internal callers branch on `reason`, the public API returns `message`. */
export interface TaskError {
  /** `lost`: the lock was taken over while this change held it (a stall past its staleness); nothing was written. */
  reason: 'missing' | 'invalid' | 'refused' | 'busy' | 'io' | 'lost';
  message: string;
}

export const TaskStoreOptionsSchema = z.strictObject({
  /**
   * Write dropped (partial) files back in full form when read (default true).
   * Off for read-only checks such as `teamd validate`.
   */
  normalise: z.boolean().optional(),
  lock: LockOptionsSchema.optional(),
  /** The clock for timestamps and leases; tests inject one. */
  now: NowSchema.optional(),
  /**
   * Remember this store's own writes so that an older copy from elsewhere
   * (`adopt`) cannot undo them; on for stores made with `fromSnapshot`.
   */
  trackOwnWrites: z.boolean().optional(),
  /**
   * Keep finished (completed, cancelled) tasks' descriptions and notes in the
   * index (default true). A teammate's copy of the board sets false: their
   * files keep them (slim.ts).
   */
  finishedBodies: z.boolean().optional(),
  /**
   * What `open` read last time (`teamd status`: board-cache.ts): a file the
   * cache still knows is not read again; every other read is put into it.
   */
  readCache: z
    .custom<TaskReadCache>(
      (v) => typeof v === 'object' && v !== null && 'get' in v && typeof v.get === 'function' && 'put' in v && typeof v.put === 'function',
      'expected an object with get(stem) and put(stem, read)',
    )
    .optional(),
});
export type TaskStoreOptions = z.input<typeof TaskStoreOptionsSchema>;

/** See `TaskStoreOptions.readCache`. */
export interface TaskReadCache {
  /** The file's read as last time, when it has not changed since; undefined to read it. */
  get(stem: string): TaskRead | undefined;
  put(stem: string, read: TaskRead): void;
}
