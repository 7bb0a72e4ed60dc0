/**
 * The teammate's lifecycle and the messages between the lead and a teammate's
 * worker thread. The lead never tells a worker *what* to do: files are the
 * truth, and a `wake` only means "look now". Everything here crosses the
 * thread boundary with structuredClone, so it is plain data, validated on
 * arrival with zod.
 */
import { z } from 'zod';
import { TeamConfigSchema, TeammateConfigSchema } from '../config/schema.js';
import type { Task } from '../store/types.js';

/** starting → idle ⇄ working → stopping → stopped; any state may become `dead` (seen by the lead only). */
export const TeammateStateSchema = z.enum(['starting', 'idle', 'working', 'waiting', 'stopping', 'stopped', 'dead']);
export type TeammateState = z.infer<typeof TeammateStateSchema>;

const ALLOWED: Record<TeammateState, TeammateState[]> = {
  starting: ['idle', 'stopping', 'stopped'],
  idle: ['working', 'stopping', 'stopped'],
  working: ['idle', 'waiting', 'stopping', 'stopped'],
  waiting: ['working', 'idle', 'stopping', 'stopped'],
  stopping: ['stopped'],
  stopped: [],
  dead: [],
};

/** The one place that says which state changes are legal. */
export const canTransition = (from: TeammateState, to: TeammateState): boolean =>
  from === to || ALLOWED[from].includes(to) || to === 'dead';

/** `.team/state/agents/<name>.json`: what `teamd status` reads to tell idle from working from dead. */
export const AgentStatusSchema = z.object({
  name: z.string(),
  state: TeammateStateSchema,
  pid: z.number(),
  threadId: z.number().optional(),
  task: z.string().nullable(),
  heartbeat: z.iso.datetime(),
  startedAt: z.iso.datetime(),
  turns: z.number(),
  tokens: z.object({ input: z.number(), output: z.number(), cacheRead: z.number(), cacheWrite: z.number() }),
  costUsd: z.number(),
  model: z.string(),
  note: z.string().optional(),
  restarts: z.number().default(0),
});
export type AgentStatus = z.infer<typeof AgentStatusSchema>;

/**
 * A task from the lead's index. Every task there passed `TaskSchema` when the
 * lead read its file; re-running the full schema in every worker for every
 * change would cost more than the change, so here only the shape the index
 * relies on is checked.
 */
const SharedTaskSchema = z.custom<Task>(
  (v) =>
    typeof v === 'object' &&
    v !== null &&
    typeof (v as Task).id === 'string' &&
    typeof (v as Task).status === 'string' &&
    Array.isArray((v as Task).blockedBy),
  { message: 'not a task of the lead\'s index' },
);

export const WorkerDataSchema = z.object({
  repoRoot: z.string(),
  teammate: TeammateConfigSchema,
  team: TeamConfigSchema,
  /** The model spec actually used (teammate's, else the team's). */
  model: z.string(),
  /** When set, model calls go to the lead over IPC (scripted models are shared by the whole team). */
  modelViaLead: z.boolean(),
  restarts: z.number(),
  idleRecheckMs: z.number().optional(),
  /** Send the runtime's events to the lead (`agent_event`): set by the library's team API, off for the daemon. */
  forwardEvents: z.boolean().default(false),
  /** The lead's task index when the worker was started; later changes come as `tasks` messages. */
  tasks: z.array(SharedTaskSchema).default([]),
  /**
   * The teammate runs out of the lead's process (hosts/): it writes none of
   * the team's files, but asks the lead with `store_call` (claims, task
   * changes, mail, status, requests, the worktree's commit, transcript
   * lines, cron jobs, memories).
   */
  writesViaLead: z.boolean().default(false),
  /**
   * A sandbox started for one granted worktree (hosts/sandbox-channel.ts):
   * the task it already claimed, whose worktree is the only one bound
   * writable. The teammate works on it first, without claiming or asking again.
   */
  grantedWorktree: z.object({ taskId: z.string(), path: z.string(), branch: z.string().optional() }).optional(),
  /** What the teammate's status had counted before this fresh sandbox (kept across them, as one teammate's). */
  carriedStatus: AgentStatusSchema.pick({ startedAt: true, turns: true, tokens: true, costUsd: true }).optional(),
});
export type WorkerData = z.infer<typeof WorkerDataSchema>;

/** Lead → worker. */
export const ToWorkerSchema = z.discriminatedUnion('type', [
  /** "Look now". Only `reason: 'mail'` makes a busy teammate look at its inbox. */
  z.object({ type: z.literal('wake'), reason: z.string() }),
  /**
   * Changes of the lead's task index, in the order the lead saw them, as the
   * JSON of `TaskChangesSchema`: serialised once for every worker, where
   * cloning the objects would cost once per worker.
   */
  z.object({ type: z.literal('tasks'), json: z.string() }),
  z.object({ type: z.literal('stop'), reason: z.string() }),
  /** A teammate joined at run time (the library's `createTeammate`): a recipient from now on. */
  z.object({ type: z.literal('teammate_added'), teammate: TeammateConfigSchema }),
  /** The lead's watchdog: a worker whose event loop is alive answers `pong`. */
  z.object({ type: z.literal('ping') }),
  /** Stream events of one model call, in order (those of one event-loop turn of the lead together). */
  z.object({ type: z.literal('model_events'), callId: z.string(), events: z.array(z.unknown()) }),
  /** The answer to one `store_call`: the method's value (an Outcome for most), or why the lead refused the call. */
  z.object({ type: z.literal('store_result'), callId: z.string(), ok: z.boolean(), value: z.unknown().optional(), error: z.string().optional() }),
  z.object({
    type: z.literal('worktree_ready'),
    requestId: z.string(),
    ok: z.boolean(),
    path: z.string().optional(),
    branch: z.string().optional(),
    error: z.string().optional(),
  }),
]);
export type ToWorker = z.infer<typeof ToWorkerSchema>;

/** What a `tasks` message carries: tasks added or changed, and ids whose file went (deleted or now invalid). */
export const TaskChangesSchema = z.object({ updated: z.array(SharedTaskSchema), removed: z.array(z.string()) });
export type TaskChanges = z.infer<typeof TaskChangesSchema>;

/** Worker → lead. */
export const FromWorkerSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('state'), state: TeammateStateSchema, task: z.string().nullable() }),
  z.object({ type: z.literal('event'), event: z.record(z.string(), z.unknown()) }),
  /** One event of the teammate's runtime (an `AgentEvent`), when `forwardEvents` is on. */
  z.object({ type: z.literal('agent_event'), event: z.record(z.string(), z.unknown()) }),
  /**
   * A model call, its tools by reference: `toolIds` name definitions sent in
   * `newTools` by this or an earlier call of the same worker (`resetTools`
   * forgets the earlier ones first), so a session's tools cross once.
   */
  z.object({
    type: z.literal('model_call'),
    callId: z.string(),
    request: z.unknown(),
    toolIds: z.array(z.number().int().nonnegative()),
    newTools: z.array(z.tuple([z.number().int().nonnegative(), z.unknown()])),
    resetTools: z.boolean().optional(),
  }),
  z.object({ type: z.literal('model_abort'), callId: z.string() }),
  z.object({ type: z.literal('worktree_request'), requestId: z.string(), taskId: z.string() }),
  /**
   * A write the lead makes for a teammate out of its process (hosts/store-calls.ts):
   * `store` and `method` name one of a fixed list, `args` are the method's.
   */
  z.object({
    type: z.literal('store_call'),
    callId: z.string(),
    store: z.enum(['tasks', 'mailbox', 'files', 'cron']),
    method: z.string(),
    args: z.array(z.unknown()),
  }),
  z.object({ type: z.literal('stopped') }),
  /** The process groups its commands started that may still run: the lead kills them if the worker dies. */
  z.object({ type: z.literal('process_groups'), pgids: z.array(z.number().int().positive()) }),
  z.object({ type: z.literal('pong') }),
]);
export type FromWorker = z.infer<typeof FromWorkerSchema>;
