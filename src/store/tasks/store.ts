import { newId } from '../ids.js';
import { queued } from '../lock.js';
import { invalidIdReason, teamPaths } from '../paths.js';
import { describeInputError } from '../problems.js';
import type { FileProblem, Outcome, Task, TaskResult } from '../types.js';
import { ARCHIVABLE, moveToArchive, TaskArchive } from './archive.js';
import { finishedToArchive } from './hot-board.js';
import { claimFirstReady, claimOne, type ClaimContext } from './claim.js';
import { cycleThrough } from './graph.js';
import * as life from './lifecycle.js';
import { TaskFiles, type TaskBackend, type TaskRead } from './task-files.js';
import { MemoryTaskFiles } from './memory-files.js';
import { TaskIndex, type TaskChangeNotice } from './task-index.js';
import { taskProblems } from './task-problems.js';
import { withoutFinishedBody } from './slim.js';
import { TaskWriter, type TaskChange, type TaskResultOf } from './task-writer.js';
import { checkRepoRoot, storeOptions } from '../options.js';
import { TaskStoreOptionsSchema, type NewTask, type RefreshResult, type TaskFilter, type TaskMutation, type TaskStoreOptions } from './types.js';
import { NewTaskSchema, TaskEditSchema } from './types.js';

const OPEN_CONCURRENCY = 16;
const publicOutcome = <T>(r: TaskResultOf<T>): Outcome<T> =>
  r.ok ? r : { ok: false, error: r.error.message };

/**
 * The tasks of one repository: `.tasks/<id>.json` files plus an in-memory
 * index built once at `open` and then kept current one file at a time
 * (`refresh`, and every change made through this store). Reads (`get`, `list`,
 * `ready`, …) come from the index; every change re-reads the file under its
 * lock, so the file stays the truth across processes. Nothing here throws on
 * a bad file or bad input: refusals come back as `{ ok: false, error }`.
 */
export class TaskStore {
  private readonly index = new TaskIndex();
  private readonly writer: TaskWriter;
  private readonly claims: ClaimContext;
  /** Finished tasks moved out of `.tasks/` (see archive.ts). */
  readonly archive: TaskArchive;

  private constructor(
    private readonly files: TaskBackend,
    private readonly options: TaskStoreOptions,
  ) {
    this.archive = new TaskArchive(files.folder, (file) => files.labelOf(file));
    this.index.archivedStatus = (id) => this.archive.statusOf(id);
    this.index.beforeRemove = (id) => this.archive.forget(id);
    if (options.finishedBodies === false) this.index.keep = withoutFinishedBody;
    const now = (): Date => this.now();
    this.writer = new TaskWriter(files, this.index, now, options.lock, options.trackOwnWrites ?? false);
    this.claims = { files, index: this.index, writer: this.writer, now };
  }

  /** Reads every task file once and builds the index. Bad files become `problems()`, never errors. */
  static async open(repoRoot: string, given: TaskStoreOptions = {}): Promise<TaskStore> {
    checkRepoRoot('TaskStore.open', repoRoot);
    const options = storeOptions('TaskStore.open', TaskStoreOptionsSchema, given);
    const paths = teamPaths(repoRoot);
    const store = new TaskStore(
      new TaskFiles(paths.tasks, paths.root, options.now ?? (() => new Date())),
      options,
    );
    // Read on this thread: at a cold start nothing else waits, and a sync read
    // of a small file costs a fraction of the thread pool's four round trips.
    const dropped: Task[] = [];
    const cache = options.readCache;
    for (const stem of await store.files.stems()) {
      const cached = cache?.get(stem);
      const read = cached ?? store.files.readSync(stem);
      if (!cached) cache?.put(stem, read);
      store.take(stem, read);
      if (read.kind === 'ok' && !read.complete && options.normalise !== false) dropped.push(read.task);
    }
    for (let i = 0; i < dropped.length; i += OPEN_CONCURRENCY) {
      const batch = dropped.slice(i, i + OPEN_CONCURRENCY);
      await Promise.all(batch.map(async (seen) => store.index.upsert(await store.writer.normalise(seen))));
    }
    return store;
  }

  /**
   * A store that keeps its tasks in memory only, with the same operations and
   * checks as the file store: for tests and for embedding where durability is
   * not wanted. NOT crash-safe — everything is gone with the process — and
   * never what the CLI or the daemon use.
   */
  static inMemory(given: TaskStoreOptions = {}): TaskStore {
    const options = storeOptions('TaskStore.inMemory', TaskStoreOptionsSchema, given);
    return new TaskStore(new MemoryTaskFiles(options.now ?? (() => new Date())), options);
  }

  /**
   * A store whose index starts from `tasks`, a copy of another store's index
   * (a teammate's worker gets the lead's), instead of reading every file. It
   * is then kept current with `adopt` and `adoptRemoval`, and by its own changes.
   */
  static fromSnapshot(repoRoot: string, tasks: readonly Task[], given: TaskStoreOptions = {}): TaskStore {
    checkRepoRoot('TaskStore.fromSnapshot', repoRoot);
    const options = storeOptions('TaskStore.fromSnapshot', TaskStoreOptionsSchema, given);
    const paths = teamPaths(repoRoot);
    const files = new TaskFiles(paths.tasks, paths.root, options.now ?? (() => new Date()));
    const store = new TaskStore(files, { ...options, trackOwnWrites: true });
    for (const task of tasks) store.index.upsert(task);
    return store;
  }

  /** False when this store's index drops finished tasks' descriptions and notes (a teammate's copy, slim.ts). */
  get keepsFinishedBodies(): boolean {
    return this.options.finishedBodies !== false;
  }

  /** Every task in the index (for `fromSnapshot`). */
  snapshot(): Task[] {
    return [...this.index.all()];
  }

  /** Calls `fn` for every real change of the index (a task added, changed or removed). */
  onChange(fn: (change: TaskChangeNotice) => void): void {
    this.index.onChange = fn;
  }

  /**
   * Takes in a task as another store read it (the lead's, over IPC): unless
   * it is older than this store's own latest write of it. Returns the ids that
   * became ready through it.
   */
  adopt(task: Task): string[] {
    return this.writer.isOlderThanOwnWrite(task) ? [] : this.index.upsert(task);
  }

  /** Another store saw the task's file go (deleted, or no longer valid). */
  adoptRemoval(id: string): string[] {
    return this.index.remove(id);
  }

  /** The `.tasks/` folder. */
  get folder(): string {
    return this.files.folder;
  }

  /** How many task files this store has read since it opened (the index's cost, for tests and stats). */
  get readCount(): number {
    return this.files.reads;
  }

  get(id: string): Task | undefined {
    return this.index.get(id);
  }

  /** A live task, else an archived one (`archived: true`); undefined when neither exists. */
  find(id: string): { task: Task; archived: boolean } | undefined {
    const live = this.index.get(id);
    if (live) return { task: live, archived: false };
    const cold = invalidIdReason(id) === undefined ? this.archive.get(id) : undefined;
    return cold && { task: cold, archived: true };
  }

  /**
   * Moves finished (completed, cancelled) tasks to the archive, or with
   * `dryRun` only says which; returns the ids: those unchanged since `before`, and
   * with `keep` the oldest beyond the newest `keep` finished ones (see
   * ./hot-board.ts); `held` ids (open merges) stay. Each move re-reads
   * the task under its lock: one changed since it was picked stays.
   */
  async archiveFinished(
    before: Date,
    options: { dryRun?: boolean; pause?: (step: string) => Promise<void>; keep?: number; held?: ReadonlySet<string> } = {},
  ): Promise<string[]> {
    const rule = { before: before.getTime(), keep: options.keep ?? Infinity, held: options.held ?? new Set<string>() };
    const picked = finishedToArchive(this.list(), rule);
    const old = (t: Task): boolean => ARCHIVABLE.has(t.status) && picked.get(t.id) === t.updatedAt;
    const moved: string[] = [];
    for (const id of [...picked.keys()].sort()) {
      if (options.dryRun) {
        moved.push(id);
        continue;
      }
      const how = { pause: options.pause, lock: this.options.lock };
      const done = await moveToArchive(this.files.folder, this.archive, id, old, how);
      if (done.ok) moved.push(id);
      await this.refresh(id);
    }
    return moved;
  }

  /** Tasks oldest first, from the index. */
  list(filter: TaskFilter = {}): Task[] {
    const statuses = filter.status === undefined ? undefined : [filter.status].flat();
    const wanted = (t: Task): boolean =>
      (!statuses || statuses.includes(t.status)) && (filter.owner === undefined || t.owner === filter.owner);
    return [...this.index.all()]
      .filter(wanted)
      .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));
  }

  /** Ready tasks (for `agent`: those unassigned or assigned to it), highest priority then oldest first. */
  ready(agent?: string): Task[] {
    return this.index.ready(agent);
  }

  isReady(id: string): boolean {
    return this.index.isReady(id);
  }

  /** The ids in `blockedBy` of `id` that are not completed yet. */
  blockers(id: string): string[] {
    return this.index.blockers(id);
  }

  /** The tasks waiting on `id`. */
  dependents(id: string): string[] {
    return this.index.dependents(id);
  }

  /** Invalid files, dependency cycles and `blockedBy` ids naming no task. */
  problems(): FileProblem[] {
    return taskProblems(this.index, (id) => this.files.label(id));
  }

  /** Re-reads one file (an id, or a path as a watcher reports it) into the index. */
  async refresh(idOrFile: string): Promise<RefreshResult> {
    const stem = this.files.stemOf(idOrFile);
    if (!stem.ok) return { kind: 'ignored', reason: stem.error };
    // In this process's queue for the file: a read overlapping a change made
    // through this store would otherwise put the older version back.
    const file = this.files.fileOf(stem.value);
    const read = file.ok
      ? await queued(file.value, () => this.files.read(stem.value))
      : await this.files.read(stem.value);
    const nowReady = this.take(stem.value, read);
    if (read.kind === 'missing') return { kind: 'removed', id: stem.value, nowReady };
    if (read.kind === 'invalid') return { kind: 'invalid', problems: read.problems };
    if (read.complete || this.options.normalise === false) return { kind: 'updated', task: read.task, nowReady };
    // A dropped file is in the index (and with the teammates) at once; the write-back in full form follows.
    const task = await this.writer.normalise(read.task);
    return { kind: 'updated', task, nowReady: [...nowReady, ...this.index.upsert(task)] };
  }

  /** Puts what a read of `stem` found into the index (and its problems); returns the ids that became ready. */
  private take(stem: string, read: TaskRead): string[] {
    const label = this.files.label(stem);
    if (read.kind === 'invalid') {
      this.index.remove(stem);
      this.index.setProblems(label, read.problems);
      return [];
    }
    this.index.setProblems(label, []);
    return read.kind === 'missing' ? this.index.remove(stem) : this.index.upsert(read.task);
  }

  async create(input: NewTask): Promise<Outcome<Task>> {
    const parsed = NewTaskSchema.safeParse(input);
    if (!parsed.success) return { ok: false, error: describeInputError(parsed.error) };
    const { id = newId('t'), subject, blockedBy = [], ...rest } = parsed.data;
    const unique = [...new Set(blockedBy)];
    if (invalidIdReason(id) === undefined && this.archive.get(id)) return { ok: false, error: `task "${id}" already exists (archived)` };
    const depsError = await this.checkNewDependencies(id, unique);
    if (depsError) return { ok: false, error: depsError };
    const task: Task = {
      ...life.blankTask(id, subject, this.now().toISOString()),
      ...definedOnly(rest),
      blockedBy: unique,
    };
    return publicOutcome(await this.writer.writeNew(task));
  }

  /**
   * Changes a task under its lock: re-reads the file, applies `mutate`, checks
   * the change (schema, legal status transition, lease) and writes it.
   */
  async update(id: string, mutate: (task: Task) => TaskMutation): Promise<Outcome<Task>> {
    return this.apply(id, (fresh) => {
      const next = mutate(structuredClone(fresh));
      return 'ok' in next ? next : { ok: true, value: next };
    });
  }

  /**
   * `update` with an async mutator that runs while the task's lock is held:
   * the merge queue moves the integration branch inside it, so a cancel
   * (which takes the same lock) lands wholly before or wholly after.
   */
  async updateLocked(id: string, mutate: (task: Task) => Promise<TaskMutation>): Promise<Outcome<Task>> {
    return this.apply(id, async (fresh) => {
      const next = await mutate(structuredClone(fresh));
      return 'ok' in next ? next : { ok: true, value: next };
    });
  }

  /** Compare-and-set: only a ready task, only one winner across processes. */
  async claim(id: string, owner: string, leaseMs: number): Promise<Outcome<Task>> {
    return publicOutcome(await claimOne(this.claims, id, owner, leaseMs));
  }

  /** Claims the first ready task `owner` may take; null when none is left. */
  async claimNext(owner: string, leaseMs: number): Promise<Outcome<Task | null>> {
    return publicOutcome(await claimFirstReady(this.claims, owner, leaseMs));
  }

  async renewLease(id: string, owner: string, leaseMs: number): Promise<Outcome<Task>> {
    // Not forced to disk (a lease lost in a power cut only ends sooner), like a claim.
    return publicOutcome(await this.writer.change(id, (t) => life.renewTask(t, owner, leaseMs, this.now()), undefined, false));
  }

  async complete(id: string, owner: string, result: TaskResult | string): Promise<Outcome<Task>> {
    const full = typeof result === 'string' ? { summary: result } : result;
    return this.apply(id, (t) => life.completeTask(t, owner, full));
  }

  async fail(id: string, owner: string, error: string): Promise<Outcome<Task>> {
    return this.apply(id, (t) => life.failTask(t, owner, error));
  }

  /** Gives a claimed task back to pending (unowned), with an optional note saying why. */
  async release(id: string, owner: string, note?: string): Promise<Outcome<Task>> {
    return this.apply(id, (t) => life.releaseTask(t, owner, note, this.now()));
  }

  async cancel(id: string, by = 'user'): Promise<Outcome<Task>> {
    return this.apply(id, (t) => life.cancelTask(t, by, this.now()));
  }

  /** A failed or cancelled task back to pending (`teamd task retry`); its notes keep the history. */
  async retry(id: string, by = 'user'): Promise<Outcome<Task>> {
    return this.apply(id, (t) => life.retryTask(t, by, this.now()));
  }

  /**
   * A person's edit under the task's lock: the fields are validated like
   * `create`'s, and a new `blockedBy` must name existing tasks and close no cycle.
   */
  async edit(id: string, edit: life.TaskEdit, by = 'user'): Promise<Outcome<Task>> {
    const parsed = TaskEditSchema.safeParse(edit);
    if (!parsed.success) return { ok: false, error: describeInputError(parsed.error) };
    const blockedBy = parsed.data.blockedBy && [...new Set(parsed.data.blockedBy)];
    if (blockedBy) {
      const depsError = await this.checkNewDependencies(id, blockedBy);
      if (depsError) return { ok: false, error: depsError };
    }
    return this.apply(id, (t) => life.editTask(t, { ...parsed.data, blockedBy }, by, this.now()));
  }

  async addNote(id: string, by: string, text: string): Promise<Outcome<Task>> {
    return this.apply(id, (t) => life.noteTask(t, by, text, this.now()));
  }

  /**
   * Returns tasks whose lease ran out at `now` to pending (one more attempt) or,
   * after `maxAttempts` lost leases, fails them. Returns the tasks it changed.
   */
  async reclaimExpired(now: Date, maxAttempts: number): Promise<Task[]> {
    const changed: Task[] = [];
    for (const task of this.list({ status: 'in_progress' })) {
      if (!life.leaseExpired(task, now)) continue;
      const reclaimed = await this.writer.change(task.id, (t) => life.reclaimTask(t, now, maxAttempts));
      if (reclaimed.ok) changed.push(reclaimed.value);
    }
    return changed;
  }

  /**
   * Tasks in progress with no lease (never written so by teamd: a hand edit,
   * a copied file), unstuck by `repairLeaseless`; `skip` leaves some alone.
   * Returns the tasks it changed.
   */
  async repairLeaseless(now: Date, leaseMs: number, skip: (t: Task) => boolean = () => false): Promise<Task[]> {
    const changed: Task[] = [];
    for (const task of this.list({ status: 'in_progress' })) {
      if (!life.leaseMissing(task) || skip(task)) continue;
      const repaired = await this.writer.change(task.id, (t) => (skip(t) ? { ok: false, error: 'skipped' } : life.repairLeaseless(t, now, leaseMs)));
      if (repaired.ok) changed.push(repaired.value);
    }
    return changed;
  }

  private now(): Date {
    return this.options.now?.() ?? new Date();
  }

  private async apply(id: string, change: TaskChange): Promise<Outcome<Task>> {
    return publicOutcome(await this.writer.change(id, change));
  }

  /** Every blocker must exist (maybe made by another process: look on disk) and must not close a cycle. */
  private async checkNewDependencies(id: string, blockedBy: string[]): Promise<string | undefined> {
    for (const blocker of blockedBy) {
      if (blocker === id) continue;
      if (!this.index.get(blocker)) await this.refresh(blocker);
      if (!this.index.get(blocker) && this.find(blocker) === undefined) return `blockedBy: no task "${blocker}"`;
    }
    const cycle = cycleThrough(this.index.graph(), id, blockedBy);
    return cycle ? `blockedBy: would create a dependency cycle ${cycle.join(' → ')}` : undefined;
  }
}

/** The fields a caller actually gave, so the defaults of a blank task stay for the rest. */
function definedOnly<T extends object>(fields: T): Partial<T> {
  return Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)) as Partial<T>;
}
