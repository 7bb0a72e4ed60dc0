/**
 * `MemoryMailbox`: the mailbox store's operations over maps in memory, for
 * tests and for embedding where durability is not wanted. NOT crash-safe —
 * every message is gone with the process — and never what the CLI or the
 * daemon use. Messages are validated and delivered in two steps exactly as
 * in `MailboxStore`; the shared contract tests run against both.
 */
import type { FileProblem, Message, Outcome } from '../types.js';
import { composeMessage } from './compose.js';
import { clearInbox, dequeueOne, listUnread, markOneRead } from './design-names.js';
import type { MailboxStore } from './store.js';
import { storeOptions } from '../options.js';
import { MemoryMailboxOptionsSchema, type MemoryMailboxOptions, type SendInput } from './types.js';

/** The operations both mailbox stores have. */
export type Mailbox = Pick<
  MailboxStore,
  'send' | 'record' | 'peek' | 'take' | 'ack' | 'recoverStale' | 'history' | 'inboxSizes' | 'agents' | 'problems' | 'dequeue' | 'list' | 'markRead' | 'clear' | 'onProblem'
>;

const withoutDelivery = ({ deliveringSince: _, ...m }: Message): Message => m;

export class MemoryMailbox implements Mailbox {
  onProblem: ((problem: FileProblem) => void) | null = null;
  private readonly inboxes = new Map<string, Message[]>();
  private readonly archives = new Map<string, Message[]>();

  private readonly options: MemoryMailboxOptions;

  constructor(options: MemoryMailboxOptions = {}) {
    this.options = storeOptions('MemoryMailbox', MemoryMailboxOptionsSchema, options);
  }

  async send(input: SendInput): Promise<Outcome<Message>> {
    const message = composeMessage(input, this.options.roster, this.now());
    if (message.ok) this.inbox(message.value.to).push(copy(message.value));
    return Promise.resolve(message);
  }

  async record(input: SendInput): Promise<Outcome<Message>> {
    const message = composeMessage(input, this.options.roster, this.now());
    if (message.ok) this.archive(message.value.to).push(copy(message.value));
    return Promise.resolve(message);
  }

  async peek(agent: string): Promise<Message[]> {
    return Promise.resolve((this.inboxes.get(agent) ?? []).map(copy));
  }

  async take(agent: string): Promise<Message[]> {
    const since = this.now().toISOString();
    const batch = this.inbox(agent).filter((m) => !m.deliveringSince);
    for (const m of batch) m.deliveringSince = since;
    return Promise.resolve(batch.map(copy));
  }

  async ack(agent: string, ids: readonly string[]): Promise<Outcome<Message[]>> {
    const wanted = new Set(ids);
    const inbox = this.inbox(agent);
    const acked = inbox.filter((m) => wanted.has(m.id));
    this.inboxes.set(agent, inbox.filter((m) => !wanted.has(m.id)));
    this.archive(agent).push(...acked);
    return Promise.resolve({ ok: true, value: acked.map(copy) });
  }

  async recoverStale(agent: string, olderThanMs: number): Promise<Message[]> {
    const cutoff = this.now().getTime() - olderThanMs;
    const inbox = this.inbox(agent);
    const stale = inbox.filter((m) => m.deliveringSince !== undefined && Date.parse(m.deliveringSince) <= cutoff);
    this.inboxes.set(agent, inbox.map((m) => (stale.includes(m) ? withoutDelivery(m) : m)));
    return Promise.resolve(stale.map(withoutDelivery));
  }

  async history(agent: string, limit?: number): Promise<Message[]> {
    const all = (this.archives.get(agent) ?? []).map(copy);
    return Promise.resolve(limit === undefined ? all : all.slice(Math.max(0, all.length - limit)));
  }

  async inboxSizes(): Promise<Record<string, number>> {
    return Promise.resolve(Object.fromEntries([...this.inboxes].map(([agent, m]) => [agent, m.length])));
  }

  async agents(): Promise<string[]> {
    return Promise.resolve([...this.inboxes.keys()].sort());
  }

  /** Nothing in memory can be malformed: always empty. */
  async problems(): Promise<FileProblem[]> {
    return Promise.resolve([]);
  }

  dequeue(agent: string): Promise<Message | undefined> {
    return dequeueOne(this, agent);
  }

  list(agent: string): Promise<Message[]> {
    return listUnread(this, agent);
  }

  markRead(agent: string, id: string): Promise<boolean> {
    return markOneRead(this, agent, id);
  }

  clear(agent: string): Promise<number> {
    return clearInbox(this, agent);
  }

  private inbox(agent: string): Message[] {
    let inbox = this.inboxes.get(agent);
    if (!inbox) this.inboxes.set(agent, (inbox = []));
    return inbox;
  }

  private archive(agent: string): Message[] {
    let archive = this.archives.get(agent);
    if (!archive) this.archives.set(agent, (archive = []));
    return archive;
  }

  private now(): Date {
    return this.options.now?.() ?? new Date();
  }
}

/** Callers get copies: changing a returned message never changes the store (as with files). */
const copy = (m: Message): Message => structuredClone(m);
