import { describeInputError } from '../store/problems.js';
import type { CronJob, Outcome } from '../store/types.js';
import { CronJobSchema } from '../store/types.js';
import type { DuePlan } from './due-slots.js';
import { planDue } from './due-slots.js';
import type { CronEventBody, FiringContext } from './firing.js';
import { deliverPending, fireSlot } from './firing.js';
import { checkJob, isExpired, isFinished } from './job-check.js';
import type { ScheduledJob } from './job-index.js';
import { baselineOf, JobIndex, nextOf } from './job-index.js';
import { MemoryCronJobs } from './memory-source.js';
import type { CronSchedulerOptions, TimerHandle } from './types.js';

/** A job as `cron_list` shows it. */
export interface CronJobView {
  job: CronJob;
  /** ISO time of the next fire; null when done, expired, or never again. */
  nextFireAt: string | null;
}

/**
 * Fires cron jobs once per slot. One timer sleeps until the earliest next fire
 * (or expiry) of all jobs; every operation — start, reload, a timer, a teammate
 * becoming idle — runs one at a time on a queue, so no two ever interleave.
 * Failures become `cron_error` events; the returned promises never reject.
 */
export class CronScheduler implements AsyncDisposable {
  private readonly memory = new MemoryCronJobs();
  private readonly index: JobIndex;
  private readonly firing: FiringContext;
  private readonly lateAfterMs: number;
  private readonly maxSleepMs: number;
  private timer: TimerHandle | null = null;
  private expectedWake: number | null = null;
  private queue: Promise<void> = Promise.resolve();
  private reloadQueued = false;
  private started = false;
  private stopped = false;

  constructor(private readonly options: CronSchedulerOptions) {
    this.lateAfterMs = options.lateAfterMs ?? 5000;
    this.maxSleepMs = Math.min(options.maxSleepMs ?? 60_000, 2 ** 31 - 1);
    const fileOf = options.fileOf ?? ((id: string) => `.cron/${id}.json`);
    this.index = new JobIndex(
      (problem) => this.emit({ type: 'cron_job_invalid', ...problem }),
      fileOf,
      options.validTargets,
    );
    this.firing = {
      sourceOf: (entry) => (entry.owner === 'source' ? options.source : this.memory),
      deliver: (job, slot) => options.deliver(job, slot),
      emit: (event) => this.emit(event),
      replace: (entry, job) => this.index.replace(entry, job),
    };
  }

  /** Loads the jobs, delivers fires left pending by a previous run, handles missed slots, arms the timer. */
  start(): Promise<void> {
    if (this.started) return this.idle();
    this.started = true;
    return this.enqueue(async () => {
      await this.load();
      await this.deliverAllPending();
      await this.evaluate();
    });
  }

  /**
   * Re-reads the jobs after a change in `.cron/` (a watcher event is a hint: the
   * folder is read again; it holds tens of small files). Added, edited and removed
   * jobs take effect at once. `_jobId` names the changed job for the caller's sake.
   */
  reload(_jobId?: string): Promise<void> {
    if (!this.started || this.stopped) return Promise.resolve();
    if (this.reloadQueued) return this.queue;
    this.reloadQueued = true;
    return this.enqueue(async () => {
      this.reloadQueued = false;
      await this.load();
      await this.evaluate();
    });
  }

  /** A teammate became idle: fires deferred earlier (`any` target, all busy) are delivered now. */
  onTeammateIdle(): Promise<void> {
    if (!this.started || this.stopped) return Promise.resolve();
    return this.enqueue(() => this.deliverAllPending());
  }

  /** Schedules a job that lives in memory only (for this scheduler's lifetime). */
  async addEphemeral(input: CronJob): Promise<Outcome<CronJob>> {
    const parsed = CronJobSchema.safeParse({ ...input, durable: false });
    if (!parsed.success) return { ok: false, error: describeInputError(parsed.error) };
    const problem = checkJob(parsed.data, this.options.validTargets);
    if (problem) return { ok: false, error: `${problem.field ?? 'job'}: ${problem.message}` };
    if (this.index.get(parsed.data.id)) {
      return { ok: false, error: `cron job ${parsed.data.id} already exists` };
    }
    const added = this.memory.add(parsed.data);
    if (added.ok) await this.reload();
    return added;
  }

  /** Removes a job added with `addEphemeral`. */
  async removeEphemeral(id: string): Promise<Outcome<CronJob>> {
    const removed = this.memory.remove(id);
    if (removed.ok) await this.reload();
    return removed;
  }

  /** The jobs as scheduled now (durable and not), with their next fire. */
  jobs(): CronJobView[] {
    const now = this.options.clock.now();
    return this.index.values().map((entry) => ({
      job: structuredClone(entry.job),
      nextFireAt: this.isLive(entry, now) ? (nextOf(entry)?.toISOString() ?? null) : null,
    }));
  }

  /** Resolves when every queued operation (and the delivery it started) has finished. */
  async idle(): Promise<void> {
    let seen: Promise<void> | undefined;
    while (seen !== this.queue) {
      seen = this.queue;
      await seen;
    }
  }

  /** Cancels the timer and waits for the operation in progress. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.disarm();
    await this.idle();
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.stop();
  }

  private enqueue(operation: () => Promise<void>): Promise<void> {
    const run = this.queue.then(async () => {
      if (this.stopped || !this.started) return;
      try {
        await operation();
      } catch (err) {
        this.emit({
          type: 'cron_error',
          jobId: null,
          stage: 'internal',
          message: (err as Error).stack ?? String(err),
        });
      }
      this.arm();
    });
    this.queue = run;
    return run;
  }

  private async load(): Promise<void> {
    const [stored, ephemeral] = await Promise.all([this.options.source.list(), this.memory.list()]);
    this.index.sync(stored.jobs, ephemeral.jobs, stored.problems);
  }

  private async deliverAllPending(): Promise<void> {
    for (const entry of this.index.values()) await deliverPending(this.firing, entry);
  }

  private async evaluate(): Promise<void> {
    for (const entry of this.index.values()) await this.evaluateJob(entry, this.options.clock.now());
  }

  private async evaluateJob(entry: ScheduledJob, now: number): Promise<void> {
    if (isFinished(entry.job)) return;
    if (isExpired(entry.job, now)) return this.reportExpired(entry);
    entry.expiredReported = false;
    const next = nextOf(entry);
    if (!next || next.getTime() > now) return;
    const plan = planDue(entry.job, baselineOf(entry), new Date(now), this.lateAfterMs);
    if (plan.through) {
      entry.decidedThrough = plan.through.getTime();
      entry.next = undefined;
    }
    this.reportPlan(entry.job.id, plan);
    if (plan.fire) await fireSlot(this.firing, entry, plan.fire.slot, plan.fire.late);
  }

  private reportPlan(jobId: string, { skipped, fire, caughtUp }: DuePlan): void {
    if (skipped) {
      const { reason, count, countCapped } = skipped;
      const [first, last] = [skipped.first.toISOString(), skipped.last.toISOString()];
      this.emit({ type: 'cron_missed_skipped', jobId, reason, count, countCapped, first, last });
    }
    if (fire && caughtUp > 0) {
      this.emit({ type: 'cron_caught_up', jobId, slot: fire.slot.toISOString(), missed: caughtUp });
    }
  }

  private reportExpired(entry: ScheduledJob): void {
    if (entry.expiredReported || entry.job.expiresAt === null) return;
    entry.expiredReported = true;
    this.emit({ type: 'cron_expired', jobId: entry.job.id, expiresAt: entry.job.expiresAt });
  }

  private isLive(entry: ScheduledJob, now: number): boolean {
    return !isFinished(entry.job) && !isExpired(entry.job, now);
  }

  /** One timer for the earliest next fire or expiry, at most `maxSleepMs` away. */
  private arm(): void {
    this.disarm();
    if (this.stopped) return;
    const now = this.options.clock.now();
    const wake = Math.min(...this.index.values().map((entry) => this.wakeOf(entry, now)));
    if (wake === Infinity) return;
    const delay = Math.min(Math.max(wake - now, 0), this.maxSleepMs);
    this.expectedWake = now + delay;
    this.timer = this.options.clock.setTimeout(() => this.onTimer(), delay);
  }

  private wakeOf(entry: ScheduledJob, now: number): number {
    if (!this.isLive(entry, now)) return Infinity;
    const next = nextOf(entry)?.getTime() ?? Infinity;
    const expiry = entry.job.expiresAt === null ? Infinity : Date.parse(entry.job.expiresAt);
    return Math.min(next, expiry);
  }

  private disarm(): void {
    if (this.timer) this.options.clock.clearTimeout(this.timer);
    this.timer = null;
  }

  private onTimer(): void {
    this.timer = null;
    void this.enqueue(async () => {
      this.noticeClockJump();
      await this.evaluate();
    });
  }

  /** A timer waits on elapsed time: waking far from the expected wall time means the wall clock moved. */
  private noticeClockJump(): void {
    const expected = this.expectedWake;
    const now = this.options.clock.now();
    if (expected === null || Math.abs(now - expected) <= this.lateAfterMs) return;
    this.emit({
      type: 'cron_clock_jumped',
      expectedAt: new Date(expected).toISOString(),
      now: new Date(now).toISOString(),
    });
  }

  private emit(event: CronEventBody): void {
    const at = new Date(this.options.clock.now()).toISOString();
    try {
      this.options.onEvent({ at, ...event });
    } catch {
      // A failing listener (a full disk under the event log) must not stop the schedule.
    }
  }
}
