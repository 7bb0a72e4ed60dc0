/**
 * The mailbox store's contracts. A message's shape is `MessageSchema` in
 * `../types.ts`; an inbox file `.mailboxes/<agent>.json` is a JSON array of
 * them, oldest first, and `.mailboxes/archive/<agent>.jsonl` holds one
 * delivered message per line.
 */
import { z } from 'zod';
import { LockOptionsSchema, NowSchema, RosterSchema } from '../options.js';
import { AgentNameSchema, MessageSchema, MessageTypeSchema, MetadataSchema } from '../types.js';

/**
 * What `send` accepts. The store adds `id` (unique, time-sortable) and `ts`.
 * `to` is one agent: a broadcast is the caller sending once per recipient.
 */
export const SendInputSchema = z.strictObject({
  from: MessageSchema.shape.from,
  to: AgentNameSchema,
  type: MessageTypeSchema.optional(),
  content: MessageSchema.shape.content,
  metadata: MetadataSchema.optional(),
});
export type SendInput = z.input<typeof SendInputSchema>;

export const MailboxStoreOptionsSchema = z.strictObject({
  /** When set, `send` refuses any recipient not in it (the error lists the valid names). */
  roster: RosterSchema.optional(),
  lock: LockOptionsSchema.optional(),
  /** The clock for `ts` and `deliveringSince`; tests inject one. */
  now: NowSchema.optional(),
  /**
   * A file that keeps archive summaries (problems, newest message) across
   * processes: `teamd status` and `top` pass `.team/state/archive-summaries.json`.
   */
  summaryCache: z.string().min(1).optional(),
});
export type MailboxStoreOptions = z.input<typeof MailboxStoreOptionsSchema>;

/** `MemoryMailbox`'s options: those of the file store that mean something in memory. */
export const MemoryMailboxOptionsSchema = MailboxStoreOptionsSchema.pick({ roster: true, now: true });
export type MemoryMailboxOptions = z.input<typeof MemoryMailboxOptionsSchema>;
