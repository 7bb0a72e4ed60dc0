/**
 * The mailbox operations under the names of the design's team mailbox
 * (`dequeue`, `list`, `markRead`, `clear`), built on the two-step delivery
 * both mailbox stores have (`peek`, `ack`). Each takes one message out in a
 * single step: there is no crash-safe hand-over as with `take` + `ack`.
 */
import type { Message, Outcome } from '../types.js';

/** What the aliases need of a store. */
export interface DeliveryCore {
  peek(agent: string): Promise<Message[]>;
  ack(agent: string, ids: readonly string[]): Promise<Outcome<Message[]>>;
}

const unread = (messages: Message[]): Message[] => messages.filter((m) => m.deliveringSince === undefined);

/** The unread messages of `agent`, oldest first (not those being delivered). */
export async function listUnread(store: DeliveryCore, agent: string): Promise<Message[]> {
  return unread(await store.peek(agent));
}

/** Takes the oldest unread message out (into the archive) and returns it; undefined when none is left. */
export async function dequeueOne(store: DeliveryCore, agent: string): Promise<Message | undefined> {
  for (;;) {
    const first = unread(await store.peek(agent))[0];
    if (!first) return undefined;
    const acked = await store.ack(agent, [first.id]);
    if (!acked.ok) return undefined;
    if (acked.value.length) return acked.value[0];
    // someone else took it first: try the next one
  }
}

/** Marks one message read (archived, out of the inbox); false when it was not there. */
export async function markOneRead(store: DeliveryCore, agent: string, id: string): Promise<boolean> {
  const acked = await store.ack(agent, [id]);
  return acked.ok && acked.value.length > 0;
}

/** Marks every message of the inbox read; returns how many. Nothing is deleted: they go to the archive. */
export async function clearInbox(store: DeliveryCore, agent: string): Promise<number> {
  const ids = (await store.peek(agent)).map((m) => m.id);
  if (!ids.length) return 0;
  const acked = await store.ack(agent, ids);
  return acked.ok ? acked.value.length : 0;
}
