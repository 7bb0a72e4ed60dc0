/**
 * The files the team coordinates through. Every shape here is a zod schema;
 * the TypeScript types are inferred from them, so what is validated on disk
 * and what the code handles can never drift apart.
 */
import { z } from 'zod';
import { valueShapeProblem } from './json-bounds.js';

/** Ids and agent names: never a path, never `..`, at most 64 characters. */
export const ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

export const IdSchema = z
  .string()
  .regex(ID_PATTERN, 'must match ^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$ (letters, digits, . _ -; no slashes)')
  .refine((s) => !s.includes('..'), 'must not contain ".."');

export const AgentNameSchema = IdSchema;

/**
 * Free-form `metadata` of tasks and messages: any JSON object, at most
 * `METADATA_DEPTH` levels deep and about `METADATA_CHARS` characters, so that
 * a task or an inbox holding it always stays within the bounds of
 * json-bounds.ts (and nothing recursing over it can overflow the stack).
 */
export const METADATA_DEPTH = 32;
export const METADATA_CHARS = 200_000;
export const MetadataSchema = z.record(z.string(), z.unknown()).superRefine((value, ctx) => {
  const problem = valueShapeProblem(value, { maxDepth: METADATA_DEPTH, maxChars: METADATA_CHARS });
  if (problem !== undefined) ctx.addIssue({ code: 'custom', message: problem });
});

export const TaskStatusSchema = z.enum(['pending', 'in_progress', 'completed', 'failed', 'cancelled']);
export type TaskStatus = z.infer<typeof TaskStatusSchema>;

/** A claim's lease: the owner must renew it before `expiresAt` or lose the task. */
export const LeaseSchema = z.strictObject({
  owner: AgentNameSchema,
  expiresAt: z.iso.datetime(),
});
export type Lease = z.infer<typeof LeaseSchema>;

/** What a finished (or failed) task reports. */
export const TaskResultSchema = z.strictObject({
  summary: z.string(),
  filesTouched: z.array(z.string()).optional(),
  branch: z.string().optional(),
  commit: z.string().optional(),
  mergeCommit: z.string().optional(),
  error: z.string().optional(),
});
export type TaskResult = z.infer<typeof TaskResultSchema>;

/** A note appended to a task by the lead or a teammate (reclaims, merge refusals, …). */
export const TaskNoteSchema = z.strictObject({
  ts: z.iso.datetime(),
  by: z.string(),
  text: z.string(),
});

export const TaskSchema = z.strictObject({
  id: IdSchema,
  subject: z.string().min(1, 'must not be empty').max(500),
  description: z.string().max(100_000).default(''),
  status: TaskStatusSchema.default('pending'),
  owner: AgentNameSchema.nullable().default(null),
  blockedBy: z.array(IdSchema).default([]),
  priority: z.number().int().default(0),
  attempts: z.number().int().min(0).default(0),
  lease: LeaseSchema.nullable().default(null),
  result: TaskResultSchema.nullable().default(null),
  notes: z.array(TaskNoteSchema).default([]),
  metadata: MetadataSchema.default({}),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});
export type Task = z.infer<typeof TaskSchema>;

/** What a person may drop into `.tasks/`: only `subject` is required; the id is the file name. */
export const DroppedTaskSchema = TaskSchema.partial().extend({ subject: TaskSchema.shape.subject });

export const MessageTypeSchema = z.enum([
  'message',
  'broadcast',
  'task_assigned',
  'task_completed',
  'cron',
  'shutdown_request',
  'shutdown_response',
  'plan_approval_request',
  'plan_approval_response',
  'permission_request',
  'permission_response',
  'idle_notification',
]);
export type MessageType = z.infer<typeof MessageTypeSchema>;

export const MessageSchema = z.strictObject({
  id: z.string().min(1).max(128),
  from: z.string().min(1).max(64),
  to: AgentNameSchema,
  type: MessageTypeSchema.default('message'),
  content: z.string().max(1_000_000),
  /** Protocol replies carry their request's `request_id` here, with `approve`, `reason`, … */
  metadata: MetadataSchema.default({}),
  ts: z.iso.datetime(),
  /** Set by `take`: the batch handed to the recipient and not yet acknowledged. */
  deliveringSince: z.iso.datetime().optional(),
});
export type Message = z.infer<typeof MessageSchema>;

export const InboxSchema = z.array(MessageSchema);

export const CatchUpSchema = z.enum(['once', 'skip']);

export const CronJobSchema = z.strictObject({
  id: IdSchema,
  cron: z.string().min(1),
  prompt: z.string().min(1).max(100_000),
  /** A teammate name, `lead`, or `any` (the first idle teammate). */
  to: AgentNameSchema.default('any'),
  recurring: z.boolean().default(true),
  durable: z.boolean().default(true),
  timezone: z.string().optional(),
  catchUp: CatchUpSchema.default('skip'),
  /** The slot time that was fired and not yet taken by its target. */
  pendingDelivery: z.iso.datetime().nullable().default(null),
  /** The slot time of the last fire (written before delivery: a slot fires once). */
  lastFired: z.iso.datetime().nullable().default(null),
  done: z.boolean().default(false),
  expiresAt: z.iso.datetime().nullable().default(null),
  createdAt: z.iso.datetime(),
});
export type CronJob = z.infer<typeof CronJobSchema>;

/** A problem found in a file: reported with the file and the field, never thrown out of a store. */
export interface FileProblem {
  file: string;
  field?: string;
  message: string;
}

/** Failures are data where a caller must branch on them. */
export type Outcome<T, E = string> = { ok: true; value: T } | { ok: false; error: E };
