/**
 * Input that arrives while the agent works (the team daemon feeds mail through
 * `enqueue`). The loop drains it at the next tool-result boundary, or holds it
 * for the next run when idle, so nothing waits for a whole run to end.
 */
import type { TextBlock } from '../model/types.js';

export interface QueuedInput {
  text: string;
  /** The caller's id (a mail id), reported back when the input enters the conversation. */
  id?: string;
  meta?: Record<string, unknown>;
}

export class InputQueue {
  private items: QueuedInput[] = [];

  add(input: string | QueuedInput): void {
    this.items.push(typeof input === 'string' ? { text: input } : { ...input });
  }

  get size(): number {
    return this.items.length;
  }

  /** The items `select` picks, removed; the rest stay in order. */
  take(select: (input: QueuedInput) => boolean): QueuedInput[] {
    const taken = this.items.filter(select);
    this.items = this.items.filter((i) => !select(i));
    return taken;
  }

  /** Everything queued so far, emptying the queue. */
  drain(): QueuedInput[] {
    const items = this.items;
    this.items = [];
    return items;
  }
}

export const queuedBlocks = (items: QueuedInput[]): TextBlock[] =>
  items.filter((i) => i.text.length > 0).map((i) => ({ type: 'text', text: i.text }));

export function queuedNotice(items: QueuedInput[]): { message: string; ids: string[] } {
  const ids = items.flatMap((i) => (i.id === undefined ? [] : [i.id]));
  const what = items.length === 1 ? '1 queued message' : `${items.length} queued messages`;
  return { message: `${what} added to the conversation`, ids };
}
