import { relative } from 'node:path';
import { listStems } from '../folder.js';
import { tryWithLock, type Fence } from '../lock.js';
import { fileFor, invalidIdReason, teamPaths, type TeamPaths } from '../paths.js';
import { formatProblem } from '../problems.js';
import type { FileProblem, Message, Outcome } from '../types.js';
import { appendArchive, readArchive } from './archive.js';
import { archiveSummary } from './archive-summary.js';
import { readInbox, withoutDelivery, writeInbox } from './inbox-file.js';
import { readSpool, removeSpooled, spoolNames, spoolOwner, writeSpooled, type Spooled } from './spool.js';
import { checkRepoRoot, storeOptions } from '../options.js';
import { MailboxStoreOptionsSchema, type MailboxStoreOptions, type SendInput } from './types.js';
import { composeMessage } from './compose.js';
import { clearInbox, dequeueOne, listUnread, markOneRead } from './design-names.js';

type InboxChange<T> = (messages: Message[]) => Promise<{ messages?: Message[]; value: T }>;

/**
 * One inbox file per agent, fed by a spool of one file per message (spool.ts):
 * a send writes its own file and takes no lock; every change of the inbox is
 * lock, read, fold the spool in, change, atomic write, then remove the folded
 * spool files, so no message is lost or entered twice. Delivery has two steps: `take` marks the unread batch as delivering and returns it;
 * `ack`, once the recipient has stored the messages, archives them and removes
 * them from the inbox. A batch taken and never acknowledged (a crash) comes
 * back through `recoverStale`; the recipient drops ids it already holds.
 */
export class MailboxStore {
  private readonly paths: TeamPaths;
  /** Told of a problem that did not stop a change of an inbox (a message id found twice), for the event log. */
  onProblem: ((problem: FileProblem) => void) | null = null;

  private readonly options: MailboxStoreOptions;

  constructor(repoRoot: string, options: MailboxStoreOptions = {}) {
    checkRepoRoot('MailboxStore', repoRoot);
    this.options = storeOptions('MailboxStore', MailboxStoreOptionsSchema, options);
    this.paths = teamPaths(repoRoot);
  }

  async send(input: SendInput): Promise<Outcome<Message>> {
    const message = this.compose(input);
    return message.ok ? this.append(message.value) : message;
  }

  /**
   * A message that needs no answer and no delivery (a routine report), put
   * straight into the recipient's archive as delivered: once, in
   * `history`, and without the inbox lock that every sender to that agent
   * and the agent itself contend for (an archive append needs no lock).
   */
  async record(input: SendInput): Promise<Outcome<Message>> {
    const message = this.compose(input);
    if (!message.ok) return message;
    const archive = fileFor(this.paths.archive, message.value.to, '.jsonl');
    if (!archive.ok) return archive;
    // Not forced to disk: a report is history (the task file holds the outcome); delivered mail is.
    try {
      await appendArchive(archive.value, [message.value], false);
      return message;
    } catch (err) {
      return { ok: false, error: `${archive.value}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}` };
    }
  }

  private compose(input: SendInput): Outcome<Message> {
    return composeMessage(input, this.options.roster, this.now());
  }

  /** The design's names (see design-names.ts): one message at a time, archived in one step. */
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

  /** The inbox as it is (unread and delivering, then the mail still in the spool), without changing it. */
  async peek(agent: string): Promise<Message[]> {
    const file = this.inboxFile(agent);
    if (!file.ok) return [];
    const read = await readInbox(file.value, this.label(file.value));
    const inbox = read.ok ? read.value : [];
    const { spooled } = await readSpool(this.paths.mailboxes, agent, (f) => this.label(f));
    return [...inbox, ...newIn(inbox, spooled).map((s) => s.message)];
  }

  /** Marks the unread messages as delivering and returns them (empty when nothing is new). */
  async take(agent: string): Promise<Message[]> {
    const since = this.now().toISOString();
    const taken = await this.changeInbox(agent, async (messages) => {
      const batch = messages.filter((m) => !m.deliveringSince).map((m) => ({ ...m, deliveringSince: since }));
      if (!batch.length) return { value: [] };
      const ids = new Set(batch.map((m) => m.id));
      return {
        messages: messages.map((m) => (ids.has(m.id) ? { ...m, deliveringSince: since } : m)),
        value: batch,
      };
    });
    return taken.ok ? taken.value : [];
  }

  /**
   * Archives the messages with these ids and removes them from the inbox.
   * Ids no longer in the inbox (already acknowledged) are ignored. Returns
   * the messages archived by this call.
   */
  async ack(agent: string, ids: readonly string[]): Promise<Outcome<Message[]>> {
    const archive = fileFor(this.paths.archive, agent, '.jsonl');
    if (!archive.ok) return archive;
    const wanted = new Set(ids);
    return this.changeInbox(agent, async (messages) => {
      const acked = messages.filter((m) => wanted.has(m.id));
      if (!acked.length) return { value: [] };
      // Archive first: a crash in between leaves the batch in both places (a duplicate line), never in neither.
      await appendArchive(archive.value, acked);
      return { messages: messages.filter((m) => !wanted.has(m.id)), value: acked };
    });
  }

  /** Hands batches taken more than `olderThanMs` ago and never acknowledged out again; returns them. */
  async recoverStale(agent: string, olderThanMs: number): Promise<Message[]> {
    const cutoff = this.now().getTime() - olderThanMs;
    const isStale = (m: Message): boolean =>
      m.deliveringSince !== undefined && Date.parse(m.deliveringSince) <= cutoff;
    const recovered = await this.changeInbox(agent, async (messages) => {
      const stale = messages.filter(isStale);
      if (!stale.length) return { value: [] };
      const cleared = messages.map((m) => (isStale(m) ? withoutDelivery(m) : m));
      return { messages: cleared, value: stale.map(withoutDelivery) };
    });
    return recovered.ok ? recovered.value : [];
  }

  /** Delivered messages of `agent`, oldest first; the last `limit` when given. */
  async history(agent: string, limit?: number): Promise<Message[]> {
    const archive = fileFor(this.paths.archive, agent, '.jsonl');
    if (!archive.ok) return [];
    if (limit === 1) {
      const { latest } = await archiveSummary(archive.value, this.label(archive.value), this.options.summaryCache);
      return latest ? [{ ...latest }] : [];
    }
    const { messages } = await readArchive(archive.value, this.label(archive.value));
    return limit === undefined ? messages : messages.slice(Math.max(0, messages.length - limit));
  }

  /** The number of messages waiting (unread or delivering) in every inbox. */
  async inboxSizes(): Promise<Record<string, number>> {
    const sizes: Record<string, number> = {};
    for (const agent of await this.agents()) sizes[agent] = (await this.peek(agent)).length;
    return sizes;
  }

  /** The agents that have an inbox file or mail in the spool. */
  async agents(): Promise<string[]> {
    const names = await listStems(this.paths.mailboxes, '.json');
    const spooled = (await spoolNames(this.paths.mailboxes)).map((n) => spoolOwner(n)!);
    return [...new Set([...names, ...spooled])].filter((n) => fileFor(this.paths.mailboxes, n).ok).sort();
  }

  /** Invalid inbox files, badly named ones, and archive lines that do not parse. */
  async problems(): Promise<FileProblem[]> {
    const problems: FileProblem[] = [];
    for (const name of await listStems(this.paths.mailboxes, '.json')) {
      if (spoolOwner(`${name}.json`) !== null) continue;
      const file = fileFor(this.paths.mailboxes, name);
      const label = this.label(`${this.paths.mailboxes}/${name}.json`);
      if (!file.ok)
        problems.push({
          file: label,
          message: `file name is not a valid agent name: ${invalidIdReason(name)}`,
        });
      else {
        const read = await readInbox(file.value, label);
        problems.push(...(read.ok ? read.problems : read.error));
      }
    }
    for (const agent of await this.agents()) {
      problems.push(...(await readSpool(this.paths.mailboxes, agent, (f) => this.label(f))).problems);
    }
    problems.push(...(await this.strayedSpool()));
    for (const name of await listStems(this.paths.archive, '.jsonl')) {
      const file = `${this.paths.archive}/${name}.jsonl`;
      problems.push(...(await archiveSummary(file, this.label(file), this.options.summaryCache)).problems);
    }
    return problems;
  }

  private now(): Date {
    return this.options.now?.() ?? new Date();
  }

  private label(file: string): string {
    return relative(this.paths.root, file);
  }

  private inboxFile(agent: string): Outcome<string> {
    return fileFor(this.paths.mailboxes, agent);
  }

  /** Spool files whose owner is no valid agent name (made by hand): reported, never delivered. */
  private async strayedSpool(): Promise<FileProblem[]> {
    const names = await spoolNames(this.paths.mailboxes);
    return names
      .filter((n) => !fileFor(this.paths.mailboxes, spoolOwner(n)!).ok)
      .map((n) => ({ file: this.label(`${this.paths.mailboxes}/${n}`), message: 'not for a valid agent name; never delivered' }));
  }

  /**
   * Lock, read, fold the spool in, change, write, remove the folded spool
   * files: the path every change of a delivery state takes. The spool is
   * removed only after the inbox holding its messages is on disk.
   */
  private async changeInbox<T>(agent: string, change: InboxChange<T>): Promise<Outcome<T>> {
    return this.withInboxLock(agent, async (file, label, fence) => {
      const read = await readInbox(file, label);
      if (!read.ok) return { ok: false, error: read.error.map(formatProblem).join('; ') };
      for (const p of read.problems) this.onProblem?.(p);
      const { spooled, problems } = await readSpool(this.paths.mailboxes, agent, (f) => this.label(f));
      for (const p of problems) this.onProblem?.(p);
      const arrived = newIn(read.value, spooled).map((s) => s.message);
      const inbox = [...read.value, ...arrived];
      const next = await change(inbox);
      const messages = next.messages ?? (arrived.length ? inbox : undefined);
      if (messages) await writeInbox(file, messages, fence);
      await removeSpooled(spooled);
      return { ok: true, value: next.value };
    });
  }

  /** Spools the message for its recipient: no lock, no read of the inbox. */
  private async append(message: Message): Promise<Outcome<Message>> {
    const file = this.inboxFile(message.to);
    if (!file.ok) return file;
    try {
      await writeSpooled(this.paths.mailboxes, message);
      return { ok: true, value: message };
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
      return { ok: false, error: `${this.label(file.value)}: cannot write the message: ${code}` };
    }
  }

  private async withInboxLock<T>(
    agent: string,
    fn: (file: string, label: string, fence: Fence) => Promise<Outcome<T>>,
  ): Promise<Outcome<T>> {
    const file = this.inboxFile(agent);
    if (!file.ok) return file;
    const done = await tryWithLock(
      file.value,
      (fence) => fn(file.value, this.label(file.value), fence),
      this.options.lock,
    );
    return done.ok ? done.value : { ok: false, error: done.error.message };
  }
}

/** The spooled messages whose ids the inbox does not hold yet (a crash after a fold leaves the others behind). */
function newIn(inbox: readonly Message[], spooled: readonly Spooled[]): Spooled[] {
  const held = new Set(inbox.map((m) => m.id));
  return spooled.filter((s) => !held.has(s.message.id) && held.add(s.message.id));
}
