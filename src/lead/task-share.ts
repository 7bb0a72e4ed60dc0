/**
 * Keeps the teammates' copies of the task index current. Every real change
 * of the lead's index (a file read by the watcher, or a write of the lead's
 * own) is sent to every worker as the task itself, batched per turn of the
 * event loop, so no worker re-reads a file the lead already read. A worker
 * starts from a snapshot of the index taken after a `flush`, so what it gets
 * afterwards is always newer than its snapshot.
 */
import type { TaskChangeNotice, TaskStore } from '../store/tasks/index.js';
import type { Task } from '../store/types.js';
import type { TaskChanges, ToWorker } from '../teammate/types.js';

export class TaskShare {
  private readonly pending = new Map<string, Task | null>();
  private scheduled: NodeJS.Immediate | null = null;
  private closed = false;

  constructor(
    tasks: TaskStore,
    private readonly broadcast: (msg: ToWorker) => void,
  ) {
    tasks.onChange((change) => this.note(change));
  }

  /** Sends what is pending now. */
  flush(): void {
    if (this.scheduled) clearImmediate(this.scheduled);
    this.scheduled = null;
    if (this.pending.size === 0 || this.closed) return;
    const updated: Task[] = [];
    const removed: string[] = [];
    for (const [id, task] of this.pending) {
      if (task) updated.push(task);
      else removed.push(id);
    }
    this.pending.clear();
    const changes: TaskChanges = { updated, removed };
    this.broadcast({ type: 'tasks', json: JSON.stringify(changes) });
  }

  close(): void {
    this.closed = true;
    if (this.scheduled) clearImmediate(this.scheduled);
    this.pending.clear();
  }

  private note(change: TaskChangeNotice): void {
    if (this.closed) return;
    if ('task' in change) this.pending.set(change.task.id, change.task);
    else this.pending.set(change.removed, null);
    this.scheduled ??= setImmediate(() => this.flush());
  }
}
