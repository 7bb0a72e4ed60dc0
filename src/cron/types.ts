/**
 * The cron scheduler's contracts. The lead embeds one `CronScheduler`; it reads
 * jobs through a `CronJobSource` (the `.cron/` store, or memory for jobs that are
 * not durable), sleeps on a `Clock` until the earliest next fire, and hands each
 * fire to the daemon's `deliver`. Everything it decides is reported as a plain
 * `CronEvent`, so the lead can write it to the event log as JSONL unchanged.
 *
 * Guarantees (see docs/CRON.md):
 * - A slot is fired at most once: `lastFired = slot` (with `pendingDelivery = slot`)
 *   is written before `deliver` is called, and a slot at or before `lastFired` is
 *   never fired again, across restarts and clock jumps.
 * - A fired slot is delivered until `deliver` says `delivered`: a pending delivery
 *   found at start is delivered, never fired again. A crash after `deliver` and before
 *   `markDelivered` delivers the same slot again, with the same `cronMessageId`,
 *   so a recipient that deduplicates by message id sees it once.
 */
import type { CronJob, FileProblem, Outcome } from '../store/types.js';

/** What the scheduler needs from a store of jobs. `CronStore` (src/store/) satisfies it. */
export interface CronJobSource {
  /** Every job, with the files that could not be read or validated. Never throws. */
  list(): Promise<{ jobs: CronJob[]; problems: FileProblem[] }>;
  /**
   * Writes `lastFired = slot` and `pendingDelivery = slot` (and `done` for a one-shot
   * job) in one atomic write under the job's lock; refuses a slot at or before `lastFired`.
   */
  markFired(id: string, slotIso: string): Promise<Outcome<CronJob>>;
  /** Clears `pendingDelivery`: the fire was handed to its target. */
  markDelivered(id: string): Promise<Outcome<CronJob>>;
}

/**
 * The scheduler's only view of time. `now()` is the wall clock (it may jump
 * backwards or forwards); timers, like Node's own, run on elapsed time.
 */
export interface Clock {
  /** Wall-clock milliseconds since the epoch. */
  now(): number;
  /** Calls `fn` once after `ms` milliseconds of elapsed time. */
  setTimeout(fn: () => void, ms: number): TimerHandle;
  clearTimeout(handle: TimerHandle): void;
}

/** Opaque: whatever the clock's `setTimeout` returned. */
export type TimerHandle = object;

/**
 * What became of one delivery attempt:
 * - `delivered`: the `cron` message was handed to its target (the scheduler clears `pendingDelivery`);
 * - `deferred`: not now (target `any` and no teammate idle); the scheduler keeps the fire
 *   pending and tries again when the daemon calls `onTeammateIdle()`, or at the next start.
 */
export type DeliveryResult = 'delivered' | 'deferred';

export interface CronSchedulerOptions {
  /** The store of jobs (`CronStore`: `.cron/` files and its own non-durable jobs). */
  source: CronJobSource;
  clock: Clock;
  /**
   * Sends the fire of `job` for `slot` to `job.to` as a `cron` message, with id
   * `cronMessageId(job.id, slot)` so a repeated delivery after a crash is recognisable.
   * A throw counts as `deferred` (reported as a `cron_error`).
   */
  deliver: (job: CronJob, slot: Date) => Promise<DeliveryResult>;
  onEvent: (event: CronEvent) => void;
  /**
   * The teammate names a job may target; `lead` and `any` are always valid. When
   * absent, every well-formed name is accepted.
   */
  validTargets?: () => readonly string[];
  /**
   * A slot reached no later than this after its time counts as on time; a later one
   * was missed (daemon down, clock jump, stalled process) and follows the job's
   * `catchUp`. Default 5000 ms.
   */
  lateAfterMs?: number;
  /**
   * The longest single sleep. Timers run on elapsed time, so a long sleep would not
   * notice the wall clock jumping (suspend, NTP step); waking at least this often
   * bounds that. Default 60 000 ms (Node's own limit is about 24.8 days).
   */
  maxSleepMs?: number;
  /** The label of a durable job's file in events. Default `.cron/<id>.json`; non-durable: `(memory) <id>`. */
  fileOf?: (id: string) => string;
}

/** Common to every event: the wall-clock time the scheduler decided it. */
interface EventBase {
  at: string;
}

/** `lastFired` was written for `slot`; delivery follows. `late`: the slot was missed and is caught up. */
export interface CronFiredEvent extends EventBase {
  type: 'cron_fired';
  jobId: string;
  slot: string;
  to: string;
  late: boolean;
}

/** `deliver` took the fire; `pendingDelivery` cleared. `recovered`: the fire was found pending at start. */
export interface CronDeliveredEvent extends EventBase {
  type: 'cron_delivered';
  jobId: string;
  slot: string;
  to: string;
  recovered: boolean;
}

/** `deliver` said not now: the fire stays pending until a teammate is idle. */
export interface CronDeferredEvent extends EventBase {
  type: 'cron_deferred';
  jobId: string;
  slot: string;
  to: string;
}

/** `catchUp: "once"`: `missed` slots were missed and `slot` (the latest of them) fires in their place. */
export interface CronCaughtUpEvent extends EventBase {
  type: 'cron_caught_up';
  jobId: string;
  slot: string;
  missed: number;
}

/**
 * Slots dropped, `first` to `last`. `missed`: missed with `catchUp: "skip"` (or
 * before an on-time slot). `undelivered`: the previous fire was still pending, so
 * these were not fired on top of it. `count` stops at 1000 (`countCapped`).
 */
export interface CronMissedSkippedEvent extends EventBase {
  type: 'cron_missed_skipped';
  jobId: string;
  reason: 'missed' | 'undelivered';
  count: number;
  countCapped: boolean;
  first: string;
  last: string;
}

/** A job that cannot be scheduled: reported once per file and problem, then skipped. */
export interface CronJobInvalidEvent extends EventBase {
  type: 'cron_job_invalid';
  file: string;
  jobId?: string;
  field?: string;
  message: string;
}

/** A `recurring: false` job fired its one slot and was marked `done` (kept on disk). */
export interface CronDoneEvent extends EventBase {
  type: 'cron_done';
  jobId: string;
  slot: string;
}

/** `expiresAt` has come: the job fires no more (reported once per scheduler). */
export interface CronExpiredEvent extends EventBase {
  type: 'cron_expired';
  jobId: string;
  expiresAt: string;
}

/** A store write or a delivery failed; the job stays scheduled. `jobId` null: the scheduler itself. */
export interface CronErrorEvent extends EventBase {
  type: 'cron_error';
  jobId: string | null;
  stage: CronErrorStage;
  message: string;
}

/** A timer woke well before or after its wall-clock time: the clock was stepped (or the process stalled). */
export interface CronClockJumpedEvent extends EventBase {
  type: 'cron_clock_jumped';
  expectedAt: string;
  now: string;
}

/**
 * Everything the scheduler decides, as plain objects (they cross worker threads
 * and go into the event log unchanged). Slots and times are ISO strings.
 */
export type CronEvent =
  | CronFiredEvent
  | CronDeliveredEvent
  | CronDeferredEvent
  | CronCaughtUpEvent
  | CronMissedSkippedEvent
  | CronJobInvalidEvent
  | CronDoneEvent
  | CronExpiredEvent
  | CronErrorEvent
  | CronClockJumpedEvent;

export type CronErrorStage = 'mark_fired' | 'deliver' | 'mark_delivered' | 'internal';
export type CronEventType = CronEvent['type'];
