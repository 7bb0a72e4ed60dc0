/**
 * The last `max` ids marked (the oldest forgotten first): for the lead's
 * "already done for this task" marks, which must not grow with the board's
 * history (issue 24). A forgotten mark only costs the check it saved again
 * (a protected-path check, a look in the event log), never a wrong answer.
 */
export class RecentIds {
  private readonly ids = new Set<string>();

  constructor(private readonly max = 4_096) {}

  add(id: string): void {
    this.ids.delete(id); // a mark made again is the newest
    this.ids.add(id);
    if (this.ids.size > this.max) this.ids.delete(this.ids.values().next().value!);
  }

  has(id: string): boolean {
    return this.ids.has(id);
  }

  get size(): number {
    return this.ids.size;
  }
}
