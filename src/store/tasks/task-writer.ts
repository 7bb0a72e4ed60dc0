import type { Fence, LockOptions } from '../lock.js';
import { formatProblem } from '../problems.js';
import type { Outcome, Task } from '../types.js';
import type { TaskBackend } from './task-files.js';
import type { TaskIndex } from './task-index.js';
import { checkChange } from './transitions.js';
import type { TaskError } from './types.js';

/** A change computed from the freshly re-read task (may read other files, hence async). */
export type TaskChange = (fresh: Task) => Outcome<Task> | Promise<Outcome<Task>>;
export type TaskResultOf<T> = Outcome<T, TaskError>;

export const refused = (message: string): TaskResultOf<never> => ({
  ok: false,
  error: { reason: 'refused', message },
});

/**
 * Every write to `.tasks/` goes through here: under the task's lock, re-read
 * the file, apply the change, check it (`checkChange`), write it atomically
 * and update the index. A bad id, a busy lock or a failed write come back as data.
 */
export class TaskWriter {
  /** id → `updatedAt` of this store's latest write, until a copy at least that new comes back. */
  private readonly ownWrites = new Map<string, string>();

  constructor(
    private readonly files: TaskBackend,
    private readonly index: TaskIndex,
    private readonly now: () => Date,
    private readonly lockOptions: LockOptions = {},
    private readonly trackOwnWrites = false,
  ) {}

  /** Lock, re-read, change, check, write, index. `durable: false` for a claim or a lease renewal only. */
  async change(id: string, change: TaskChange, lock?: LockOptions, durable = true): Promise<TaskResultOf<Task>> {
    return this.locked(
      id,
      async (fence) => {
        const read = await this.files.read(id);
        if (read.kind === 'missing') return this.missing(id);
        if (read.kind === 'invalid')
          return {
            ok: false,
            error: { reason: 'invalid', message: read.problems.map(formatProblem).join('; ') },
          };
        this.index.upsert(read.task);
        const next = await change(read.task);
        if (!next.ok) return refused(next.error);
        const checked = checkChange(read.task, { ...next.value, updatedAt: this.now().toISOString() });
        if (!checked.ok) return refused(checked.error);
        await this.files.write(checked.value, { durable, fence });
        this.noteWritten(checked.value);
        this.index.upsert(checked.value);
        return checked;
      },
      lock,
    );
  }

  /** Writes a new task unless its file exists (also one written by another process). */
  async writeNew(task: Task): Promise<TaskResultOf<Task>> {
    return this.locked(task.id, async (fence) => {
      if (await this.files.exists(task.id)) return refused(`task "${task.id}" already exists`);
      await this.files.write(task, { fence });
      this.noteWritten(task);
      this.index.upsert(task);
      return { ok: true, value: task };
    });
  }

  /**
   * A dropped file, written back in full form: under the lock, re-read (a
   * teamd process may have beaten us), and written only over the file as read
   * — a person dropping the file again takes no lock, and their newer drop
   * must win (its own watcher event brings it in).
   */
  async normalise(seen: Task): Promise<Task> {
    const written = await this.locked(seen.id, async (fence): Promise<TaskResultOf<Task>> => {
      const stamp = await this.files.stamp(seen.id);
      const fresh = await this.files.read(seen.id);
      if (fresh.kind !== 'ok' || stamp === null) return refused('changed while normalising');
      if (!fresh.complete && !(await this.files.write(fresh.task, { unchanged: stamp, fence }))) return refused('dropped again');
      this.noteWritten(fresh.task);
      return { ok: true, value: fresh.task };
    });
    return written.ok ? written.value : seen;
  }

  /**
   * Whether `task` (a copy from elsewhere, e.g. the lead's index) is older
   * than this store's own latest write of it; such a copy must not undo it.
   */
  isOlderThanOwnWrite(task: Task): boolean {
    const own = this.ownWrites.get(task.id);
    if (own === undefined) return false;
    if (task.updatedAt < own) return true;
    this.ownWrites.delete(task.id); // the other side has caught up
    return false;
  }

  private noteWritten(task: Task): void {
    if (this.trackOwnWrites) this.ownWrites.set(task.id, task.updatedAt);
  }

  private missing(id: string): TaskResultOf<never> {
    this.index.remove(id);
    return { ok: false, error: { reason: 'missing', message: `no task "${id}"` } };
  }

  private async locked<T>(
    id: string,
    fn: (fence: Fence | undefined) => Promise<TaskResultOf<T>>,
    lock?: LockOptions,
  ): Promise<TaskResultOf<T>> {
    const file = this.files.fileOf(id);
    if (!file.ok) return refused(file.error);
    const done = await this.files.lock(id, fn, { ...this.lockOptions, ...lock });
    return done.ok ? done.value : { ok: false, error: done.error };
  }
}
