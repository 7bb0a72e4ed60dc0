/**
 * teamd as a library. Each section belongs to the part of teamd that owns it;
 * more parts add their exports below.
 */

// ── Stores: the files the team coordinates through ─────────────────────────
export {
  AgentNameSchema,
  CatchUpSchema,
  CronJobSchema,
  DroppedTaskSchema,
  ID_PATTERN,
  IdSchema,
  InboxSchema,
  LeaseSchema,
  MessageSchema,
  MessageTypeSchema,
  TaskNoteSchema,
  TaskResultSchema,
  TaskSchema,
  TaskStatusSchema,
} from './store/types.js';
export type {
  CronJob,
  FileProblem,
  Lease,
  Message,
  MessageType,
  Outcome,
  Task,
  TaskResult,
  TaskStatus,
} from './store/types.js';
export { writeFileAtomic } from './store/atomic.js';
export { LockBusyError, lockIncidents, tryWithLock, withLock } from './store/lock.js';
export type { LockFailure, LockIncident, LockOptions } from './store/lock.js';
export { LockOptionsSchema } from './store/options.js';
export { fileFor, teamPaths } from './store/paths.js';
export type { TeamPaths } from './store/paths.js';
export { formatProblem } from './store/problems.js';
export { newId } from './store/ids.js';
export { checkTeamFiles } from './store/check.js';
export type { TeamFilesReport } from './store/check.js';

export * from './store/tasks/index.js';
export * from './store/mailbox/index.js';
export * from './store/cron/index.js';

// ── Config ──────────────────────────────────────────────────────────────────
export { TeamConfigSchema } from './config/schema.js';
export type { TeamConfig } from './config/schema.js';
export { loadConfig, rosterOf, writeDefaultConfig } from './config/load.js';
export { OptionsError } from './config/options.js';

// ── Models ──────────────────────────────────────────────────────────────────
export * from './model/index.js';

// ── Agent runtime, tools, permissions, hooks ───────────────────────────────
export * from './agent/index.js';
export { builtinTools, toolDefinition } from './tools/index.js';
export { defineTool } from './tools/types.js';
export type { AnyTool, Tool, ToolContext, ToolOutput } from './tools/types.js';
export { createPermissionGate, parseRule } from './agent/permissions/index.js';
export type { CanUseTool, PermissionDecision, PermissionPolicy } from './agent/permissions/types.js';
export { createHookRunner, hookSession, loadHookSettings } from './hooks/index.js';

// ── The team daemon ─────────────────────────────────────────────────────────
export { Lead, type LeadOptions } from './lead/lead.js';
export { runGoal, type GoalOptions } from './lead/goal.js';
export { runDemo } from './demo/demo.js';
export { readTeamStatus, type TeamStatus } from './observe/status.js';
export { readEvents } from './observe/event-log.js';
export type { LoggedEvent, TeamEvent } from './observe/types.js';
export { CronScheduler } from './cron/scheduler.js';
export { ManualClock, systemClock } from './cron/clock.js';
export { Worktrees } from './git/worktrees.js';
export { MergeQueue } from './git/merge-queue.js';
export { costReport } from './observe/cost.js';

// ── The team API (a team manager and teammate runners over the same files) ──
export * from './team-api/index.js';
