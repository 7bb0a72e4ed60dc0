import type { Task } from '../types.js';

/** Lowest priority value first (like a queue number), then the older task, then the id, so the order is total. */
export function readyOrder(a: Task, b: Task): number {
  // ISO timestamps order by their code units; localeCompare would cost more and say the same.
  const created = a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : 0;
  return a.priority - b.priority || created || a.id.localeCompare(b.id);
}

/**
 * The ready tasks kept in claim order as they change, so a claimer reads the
 * first one without sorting them all: at 5,000 ready tasks a sort per claim
 * in every teammate was most of the index's cost.
 */
export class ReadyQueue {
  private readonly sorted: Task[] = [];
  private readonly byId = new Map<string, Task>();

  get size(): number {
    return this.sorted.length;
  }

  has(id: string): boolean {
    return this.byId.has(id);
  }

  /** Adds the task, or moves it to its place if an older copy of it is here. */
  set(task: Task): void {
    const old = this.byId.get(task.id);
    if (old === task) return;
    if (old) this.sorted.splice(this.indexOf(old), 1);
    this.sorted.splice(this.lowerBound(task), 0, task);
    this.byId.set(task.id, task);
  }

  delete(id: string): void {
    const old = this.byId.get(id);
    if (!old) return;
    this.sorted.splice(this.indexOf(old), 1);
    this.byId.delete(id);
  }

  /** The first ready task that passes `accept`, in claim order. */
  first(accept: (task: Task) => boolean): Task | undefined {
    return this.sorted.find(accept);
  }

  /** Every ready task that passes `accept`, in claim order. */
  filter(accept: (task: Task) => boolean): Task[] {
    return this.sorted.filter(accept);
  }

  private indexOf(task: Task): number {
    const at = this.lowerBound(task);
    // A task changed in place after it was queued is not where its order says: look for it.
    return this.sorted[at] === task ? at : this.sorted.indexOf(task);
  }

  /** The first position whose task does not come before `task`. */
  private lowerBound(task: Task): number {
    let lo = 0;
    let hi = this.sorted.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (readyOrder(this.sorted[mid]!, task) < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}
