/**
 * Stamps event bodies with the fields every event carries, so the rest of the
 * runtime builds only what differs.
 */
import { randomUUID } from 'node:crypto';
import type { AgentEvent, EventBase } from './types.js';

/** An event without its stamp (distributes over the union, keeping each variant's fields). */
export type EventBody = AgentEvent extends infer E
  ? E extends unknown
    ? Omit<E, keyof EventBase>
    : never
  : never;

export type StampEvent = (body: EventBody) => AgentEvent;

export function eventStamper(base: Omit<EventBase, 'uuid'>): StampEvent {
  return (body) => ({ ...body, ...base, uuid: randomUUID() });
}
