import type { FileProblem, Task, TaskStatus } from '../types.js';
import { ReadyQueue } from './ready-queue.js';

export { readyOrder } from './ready-queue.js';

const isPending = (t: Task): boolean => t.status === 'pending';
const mayClaim = (task: Task, agent: string | undefined): boolean =>
  agent === undefined || task.owner === null || task.owner === agent;

/** A change of the index: the task as it is now, or the id of a task that is gone. */
export type TaskChangeNotice = { task: Task } | { removed: string };

/**
 * Two reads of one file give the same key order (the schema's), so the JSON
 * text compares content. Most changes move the status or the owner: those are
 * told apart without writing any JSON.
 */
const sameTask = (a: Task, b: Task): boolean =>
  a === b || (a.status === b.status && a.owner === b.owner && JSON.stringify(a) === JSON.stringify(b));

/**
 * The in-memory view of `.tasks/`: every valid task, who depends on whom, and
 * which tasks are ready. Each change touches only the task and its direct
 * dependents, so keeping it current costs per changed file, not per task.
 */
export class TaskIndex {
  private readonly tasks = new Map<string, Task>();
  /** blocker id → ids of the tasks that list it in `blockedBy` (also for blockers that do not exist yet). */
  private readonly dependentsOf = new Map<string, Set<string>>();
  /** Pending tasks whose blockers are all completed, in claim order; the owner is checked when asked. */
  private readonly readyQueue = new ReadyQueue();
  /** Problems of files that could not be read, by file label. */
  private readonly badFiles = new Map<string, FileProblem[]>();

  get size(): number {
    return this.tasks.size;
  }

  get(id: string): Task | undefined {
    return this.tasks.get(id);
  }

  all(): IterableIterator<Task> {
    return this.tasks.values();
  }

  graph(): ReadonlyMap<string, Task> {
    return this.tasks;
  }

  /**
   * The status of an archived task (`.tasks/archive/`, see archive.ts), asked
   * only for a blocker the live board does not hold.
   */
  archivedStatus: (id: string) => TaskStatus | undefined = () => undefined;
  /** Told before a task leaves the index (it may have been archived: see `TaskArchive.forget`). */
  beforeRemove: (id: string) => void = () => undefined;

  /** What the index keeps of a task it is given (a teammate's copy: finished tasks without their bodies, slim.ts). */
  keep: (task: Task) => Task = (task) => task;

  /** Told of every real change of the index: a task added or changed (not re-read unchanged), or removed. */
  onChange: ((change: TaskChangeNotice) => void) | null = null;

  /** Adds or replaces a task; returns the ids that became ready through it. A re-read of the same content changes nothing. */
  upsert(given: Task): string[] {
    const task = this.keep(given);
    const old = this.tasks.get(task.id);
    if (old && sameTask(old, task)) return [];
    if (old) this.unlink(old);
    this.tasks.set(task.id, task);
    this.link(task);
    const statusChanged = !old || old.status !== task.status;
    const nowReady = this.recompute(statusChanged ? [task.id, ...this.dependents(task.id)] : [task.id]);
    this.onChange?.({ task });
    return nowReady;
  }

  /** Forgets a task (its file was deleted or became invalid); returns the ids that became ready. */
  remove(id: string): string[] {
    const old = this.tasks.get(id);
    if (!old) return [];
    this.beforeRemove(id);
    this.unlink(old);
    this.tasks.delete(id);
    this.readyQueue.delete(id);
    const nowReady = this.recompute(this.dependents(id));
    this.onChange?.({ removed: id });
    return nowReady;
  }

  setProblems(label: string, problems: FileProblem[]): void {
    if (problems.length) this.badFiles.set(label, problems);
    else this.badFiles.delete(label);
  }

  fileProblems(): FileProblem[] {
    return [...this.badFiles.values()].flat();
  }

  /** Ready tasks `agent` may claim (all ready tasks without an agent), in claim order. */
  ready(agent?: string): Task[] {
    return this.readyQueue.filter((task) => mayClaim(task, agent));
  }

  /** The first ready task `agent` may claim that is not in `skip`, in claim order. */
  firstReady(agent: string, skip: ReadonlySet<string>): Task | undefined {
    return this.readyQueue.first((task) => !skip.has(task.id) && mayClaim(task, agent));
  }

  isReady(id: string): boolean {
    return this.readyQueue.has(id);
  }

  /** The ids in `blockedBy` that are not completed (missing ones included; archived completed ones are done). */
  blockers(id: string): string[] {
    return (this.tasks.get(id)?.blockedBy ?? []).filter(
      (b) => (this.tasks.get(b)?.status ?? this.archivedStatus(b)) !== 'completed',
    );
  }

  /** The existing tasks that list `id` in their `blockedBy`. */
  dependents(id: string): string[] {
    return [...(this.dependentsOf.get(id) ?? [])].filter((d) => this.tasks.has(d));
  }

  private link(task: Task): void {
    for (const blocker of task.blockedBy) {
      let set = this.dependentsOf.get(blocker);
      if (!set) this.dependentsOf.set(blocker, (set = new Set()));
      set.add(task.id);
    }
  }

  private unlink(task: Task): void {
    for (const blocker of task.blockedBy) {
      const set = this.dependentsOf.get(blocker);
      set?.delete(task.id);
      if (set?.size === 0) this.dependentsOf.delete(blocker);
    }
  }

  private recompute(ids: readonly string[]): string[] {
    const nowReady: string[] = [];
    for (const id of ids) {
      const task = this.tasks.get(id);
      const ready = task !== undefined && isPending(task) && this.blockers(id).length === 0;
      if (ready && !this.readyQueue.has(id)) nowReady.push(id);
      if (ready) this.readyQueue.set(task);
      else this.readyQueue.delete(id);
    }
    return nowReady;
  }
}
