import { rmSync } from 'node:fs';
import { relative } from 'node:path';
import { listStems } from '../folder.js';
import { newId } from '../ids.js';
import { readJson, writeJson } from '../json-file.js';
import { tryWithLock, type Fence } from '../lock.js';
import { fileFor, invalidIdReason, teamPaths, type TeamPaths } from '../paths.js';
import { describeInputError, formatProblem, parseWith } from '../problems.js';
import type { CronJob, FileProblem, Outcome } from '../types.js';
import { CronJobSchema } from '../types.js';
import { checkCronExpression, formatScheduleError } from './expression.js';
import { checkRepoRoot, storeOptions } from '../options.js';
import type { CronMutation, CronStoreOptions, NewCronJob } from './types.js';
import { CronStoreOptionsSchema, NewCronJobSchema } from './types.js';

type JobRead =
  { kind: 'missing' } | { kind: 'invalid'; problems: FileProblem[] } | { kind: 'ok'; job: CronJob };

/**
 * Scheduled prompts: durable jobs in `.cron/<id>.json`, the others in this
 * store's memory. Every durable change is lock, re-read, change, check, write.
 * (Firing them is the scheduler's job; this is only their storage.)
 */
export class CronStore {
  private readonly paths: TeamPaths;
  private readonly inMemory = new Map<string, CronJob>();
  /** Set by `CronStore.inMemory()`: durable jobs are kept in memory too, and no file is touched. */
  private memoryOnly = false;

  /**
   * A store that keeps every job in memory, durable or not, with the same
   * checks: for tests and embedding. NOT crash-safe (a durable job is gone
   * with the process) and never what the CLI or the daemon use.
   */
  static inMemory(options: CronStoreOptions = {}): CronStore {
    const store = new CronStore('/teamd-memory', storeOptions('CronStore.inMemory', CronStoreOptionsSchema, options));
    store.memoryOnly = true;
    return store;
  }

  private readonly options: CronStoreOptions;

  constructor(repoRoot: string, options: CronStoreOptions = {}) {
    checkRepoRoot('CronStore', repoRoot);
    this.options = storeOptions('CronStore', CronStoreOptionsSchema, options);
    this.paths = teamPaths(repoRoot);
  }

  async add(input: NewCronJob): Promise<Outcome<CronJob>> {
    const parsed = NewCronJobSchema.safeParse(input);
    if (!parsed.success) return { ok: false, error: describeInputError(parsed.error) };
    const { id = newId('c'), ...fields } = parsed.data;
    const job = CronJobSchema.parse({ ...fields, id, createdAt: this.now().toISOString() });
    const checked = this.checkJob(job);
    if (!checked.ok) return checked;
    if (!job.durable || this.memoryOnly) return this.addInMemory(job);
    const file = fileFor(this.paths.cron, id);
    if (!file.ok) return file;
    return this.locked(file.value, async (fence) => {
      if ((await this.read(id)).kind !== 'missing')
        return { ok: false, error: `cron job "${id}" already exists` };
      await writeJson(file.value, job, { fence });
      return { ok: true, value: job };
    });
  }

  /** Every valid job (durable ones oldest first, then in-memory ones) and the problems of the files skipped. */
  async list(): Promise<{ jobs: CronJob[]; problems: FileProblem[] }> {
    const jobs: CronJob[] = [];
    const problems: FileProblem[] = [];
    for (const stem of this.memoryOnly ? [] : await listStems(this.paths.cron, '.json')) {
      const read = await this.read(stem);
      if (read.kind === 'ok') jobs.push(read.job);
      else if (read.kind === 'invalid') problems.push(...read.problems);
    }
    jobs.sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));
    return { jobs: [...jobs, ...this.inMemory.values()], problems };
  }

  async get(id: string): Promise<CronJob | undefined> {
    const memory = this.inMemory.get(id);
    if (memory || this.memoryOnly) return memory;
    const read = await this.read(id);
    return read.kind === 'ok' ? read.job : undefined;
  }

  async remove(id: string): Promise<Outcome<CronJob>> {
    const memory = this.inMemory.get(id);
    if (memory) {
      this.inMemory.delete(id);
      return { ok: true, value: memory };
    }
    if (this.memoryOnly) return { ok: false, error: `no cron job "${id}"` };
    const file = fileFor(this.paths.cron, id);
    if (!file.ok) return file;
    return this.locked(file.value, async (fence) => {
      const read = await this.read(id);
      if (read.kind === 'missing') return { ok: false, error: `no cron job "${id}"` };
      if (read.kind === 'invalid')
        return { ok: false, error: `${invalidJob(read.problems)}; fix or delete the file` };
      fence.verify(file.value);
      rmSync(file.value, { force: true });
      return { ok: true, value: read.job };
    });
  }

  /** Changes a job: re-read under the lock, mutate, check (schema, expression, id), write. */
  async update(id: string, mutate: (job: CronJob) => CronMutation): Promise<Outcome<CronJob>> {
    const apply = (job: CronJob): Outcome<CronJob> => {
      const next = mutate(structuredClone(job));
      const outcome = 'ok' in next ? next : { ok: true as const, value: next };
      if (!outcome.ok) return outcome;
      if (outcome.value.id !== job.id) return { ok: false, error: 'id cannot change' };
      const parsed = CronJobSchema.safeParse(outcome.value);
      return parsed.success
        ? this.checkJob(parsed.data)
        : { ok: false, error: describeInputError(parsed.error) };
    };
    const memory = this.inMemory.get(id);
    if (memory) return this.updateInMemory(memory, apply);
    if (this.memoryOnly) return { ok: false, error: `no cron job "${id}"` };
    return this.updateFile(id, apply);
  }

  /**
   * Records that the slot `slotIso` fired: `lastFired` and `pendingDelivery`
   * (a one-shot job is then done). Refused when that slot or a later one was
   * already fired, so a slot fires once even with two schedulers racing.
   */
  async markFired(id: string, slotIso: string): Promise<Outcome<CronJob>> {
    return this.update(id, (job) => {
      if (job.lastFired !== null && Date.parse(job.lastFired) >= Date.parse(slotIso)) {
        return { ok: false, error: `cron job "${id}" already fired at ${job.lastFired}` };
      }
      return { ...job, lastFired: slotIso, pendingDelivery: slotIso, done: job.done || !job.recurring };
    });
  }

  /** The fired prompt reached its target: nothing is pending any more. */
  async markDelivered(id: string): Promise<Outcome<CronJob>> {
    return this.update(id, (job) => ({ ...job, pendingDelivery: null }));
  }

  private now(): Date {
    return this.options.now?.() ?? new Date();
  }

  private label(stem: string): string {
    return relative(this.paths.root, `${this.paths.cron}/${stem}.json`);
  }

  private checkJob(job: CronJob): Outcome<CronJob> {
    const roster = this.options.roster;
    if (roster && job.to !== 'any' && !roster.includes(job.to)) {
      return { ok: false, error: `to: unknown recipient "${job.to}"; valid: any, ${roster.join(', ')}` };
    }
    const schedule = checkCronExpression(job.cron, job.timezone);
    return schedule.ok ? { ok: true, value: job } : { ok: false, error: formatScheduleError(schedule.error) };
  }

  private addInMemory(job: CronJob): Outcome<CronJob> {
    if (this.inMemory.has(job.id)) return { ok: false, error: `cron job "${job.id}" already exists` };
    this.inMemory.set(job.id, job);
    return { ok: true, value: job };
  }

  private updateInMemory(job: CronJob, apply: (job: CronJob) => Outcome<CronJob>): Outcome<CronJob> {
    const next = apply(job);
    if (next.ok) this.inMemory.set(job.id, next.value);
    return next;
  }

  private async updateFile(id: string, apply: (job: CronJob) => Outcome<CronJob>): Promise<Outcome<CronJob>> {
    const file = fileFor(this.paths.cron, id);
    if (!file.ok) return file;
    return this.locked(file.value, async (fence) => {
      const read = await this.read(id);
      if (read.kind === 'missing') return { ok: false, error: `no cron job "${id}"` };
      if (read.kind === 'invalid') return { ok: false, error: invalidJob(read.problems) };
      const next = apply(read.job);
      if (next.ok) await writeJson(file.value, next.value, { fence });
      return next;
    });
  }

  /** Reads and checks `.cron/<id>.json`: schema, id = file name, expression, time zone. */
  private async read(id: string): Promise<JobRead> {
    const label = this.label(id);
    const file = fileFor(this.paths.cron, id);
    if (!file.ok)
      return {
        kind: 'invalid',
        problems: [{ file: label, message: `file name is not a valid id: ${invalidIdReason(id)}` }],
      };
    const json = await readJson(file.value, label);
    if (json.kind !== 'ok')
      return json.kind === 'missing' ? json : { kind: 'invalid', problems: [json.problem] };
    const parsed = parseWith(CronJobSchema, json.value, label);
    if (!parsed.ok) return { kind: 'invalid', problems: parsed.error };
    if (parsed.value.id !== id)
      return {
        kind: 'invalid',
        problems: [{ file: label, field: 'id', message: `must equal the file name "${id}"` }],
      };
    const schedule = checkCronExpression(parsed.value.cron, parsed.value.timezone);
    if (!schedule.ok) return { kind: 'invalid', problems: [{ file: label, ...schedule.error }] };
    return { kind: 'ok', job: parsed.value };
  }

  private async locked<T>(file: string, fn: (fence: Fence) => Promise<Outcome<T>>): Promise<Outcome<T>> {
    const done = await tryWithLock(file, fn, this.options.lock);
    return done.ok ? done.value : { ok: false, error: done.error.message };
  }
}

const invalidJob = (problems: FileProblem[]): string => problems.map(formatProblem).join('; ');
