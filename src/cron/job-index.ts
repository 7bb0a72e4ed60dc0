import { isDeepStrictEqual } from 'node:util';
import type { CronJob, FileProblem } from '../store/types.js';
import { checkTarget } from './job-check.js';
import type { Schedule } from './next-fire.js';
import { checkSchedule, nextFireAt } from './next-fire.js';

/** One job as the scheduler holds it: the file's content plus what only this run knows. */
export interface ScheduledJob {
  job: CronJob;
  /** `source`: from the store (`.cron/` files, and the store's own in-memory jobs); `scheduler`: `addEphemeral`. */
  owner: JobOwner;
  /** Slots up to here were decided without a fire (skipped); the next evaluation starts after it. */
  decidedThrough: number | null;
  /** The pending slot found when the job was first loaded: its delivery is a recovery. */
  recoveredSlot: string | null;
  expiredReported: boolean;
  /** The next fire after `baselineOf`, cached (parsing costs about a millisecond); undefined: stale. */
  next: Date | null | undefined;
}

export type JobOwner = 'source' | 'scheduler';

/** A problem as the scheduler reports it: the file, and the job when known. */
export type JobProblem = FileProblem & { jobId?: string };

/** Where the job's slots start: after its last fire, its creation, and anything already decided. */
export function baselineOf(entry: ScheduledJob): Date {
  const { lastFired, createdAt } = entry.job;
  const times = [
    Date.parse(createdAt),
    lastFired ? Date.parse(lastFired) : -Infinity,
    entry.decidedThrough ?? -Infinity,
  ];
  return new Date(Math.max(...times));
}

/** The cached next fire of `entry`, computed when stale. */
export function nextOf(entry: ScheduledJob): Date | null {
  if (entry.next === undefined) entry.next = nextFireAt(entry.job, baselineOf(entry));
  return entry.next;
}

/**
 * The schedulable jobs, rebuilt from the sources on every load while keeping what
 * this run knows about each (decided slots, recoveries). Invalid jobs are left out
 * and reported once per file and problem; fixed and broken again, reported again.
 */
export class JobIndex {
  private readonly entries = new Map<string, ScheduledJob>();
  private reported = new Set<string>();
  /** Checking an expression parses it twice (about 1.5 ms); a reload re-checks only new ones. */
  private readonly scheduleChecks = new Map<string, ReturnType<typeof checkSchedule>>();

  constructor(
    private readonly report: (problem: JobProblem) => void,
    private readonly fileOf: (id: string) => string,
    private readonly validTargets?: () => readonly string[],
  ) {}

  get(id: string): ScheduledJob | undefined {
    return this.entries.get(id);
  }

  values(): ScheduledJob[] {
    return [...this.entries.values()];
  }

  /** Replaces the index with the store's jobs and the scheduler's own; `problems` are files that did not load. */
  sync(fromSource: CronJob[], ephemeral: CronJob[], problems: FileProblem[]): void {
    const found: JobProblem[] = [...problems];
    const seen = new Set<string>();
    for (const job of ephemeral) this.admit(job, 'scheduler', seen, found);
    for (const job of fromSource) this.admit(job, 'source', seen, found);
    for (const id of this.entries.keys()) if (!seen.has(id)) this.entries.delete(id);
    this.reportNew(found);
  }

  /** Takes the job's new content (after a write of our own). */
  replace(entry: ScheduledJob, job: CronJob): void {
    if (!isDeepStrictEqual(entry.job, job)) entry.next = undefined;
    entry.job = job;
  }

  private admit(job: CronJob, owner: JobOwner, seen: Set<string>, found: JobProblem[]): void {
    const file = job.durable ? this.fileOf(job.id) : `(memory) ${job.id}`;
    if (seen.has(job.id)) {
      found.push({
        file,
        jobId: job.id,
        field: 'id',
        message: 'a job the scheduler holds in memory already has this id',
      });
      return;
    }
    const problem = this.checkSchedule(job) ?? checkTarget(job.to, this.validTargets);
    if (problem) {
      found.push({ file, jobId: job.id, ...problem });
      return;
    }
    seen.add(job.id);
    this.upsert(job, owner);
  }

  private upsert(job: CronJob, owner: JobOwner): void {
    const entry = this.entries.get(job.id);
    if (entry && entry.owner === owner) return this.replace(entry, job);
    const recoveredSlot = job.pendingDelivery;
    this.entries.set(job.id, {
      job,
      owner,
      decidedThrough: null,
      recoveredSlot,
      expiredReported: false,
      next: undefined,
    });
  }

  private checkSchedule(schedule: Schedule): ReturnType<typeof checkSchedule> {
    const key = JSON.stringify([schedule.cron, schedule.timezone]);
    if (!this.scheduleChecks.has(key)) {
      if (this.scheduleChecks.size >= 1000) this.scheduleChecks.clear();
      this.scheduleChecks.set(key, checkSchedule(schedule));
    }
    return this.scheduleChecks.get(key) ?? null;
  }

  private reportNew(found: JobProblem[]): void {
    const now = new Set<string>();
    for (const problem of found) {
      const key = JSON.stringify([problem.file, problem.field, problem.message]);
      now.add(key);
      if (!this.reported.has(key)) this.report(problem);
    }
    this.reported = now;
  }
}
