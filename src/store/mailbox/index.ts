/** The mailbox store's public surface. */
export { MailboxStore } from './store.js';
export { MemoryMailbox, type Mailbox } from './memory.js';
export { MailboxStoreOptionsSchema, MemoryMailboxOptionsSchema, SendInputSchema } from './types.js';
export type { MailboxStoreOptions, MemoryMailboxOptions, SendInput } from './types.js';
