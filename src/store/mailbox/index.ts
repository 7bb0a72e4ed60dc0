/** The mailbox store's public surface. */
export { MailboxStore } from './store.js';
export { MemoryMailbox, type Mailbox } from './memory.js';
export { SendInputSchema } from './types.js';
export type { MailboxStoreOptions, SendInput } from './types.js';
