/**
 * Mail delivery for one teammate, in two steps: *take* a batch (marked
 * delivering in the inbox), then *ack* it once its messages are in the
 * conversation (seen in a `user` event) or handled as control messages. A
 * crash between the two leaves the batch delivering; the lead hands it out
 * again, and ids already seen by this teammate are not entered twice.
 */
import type { TeamEvent } from '../observe/types.js';
import type { MailboxStore } from '../store/mailbox/index.js';
import type { Message } from '../store/types.js';
import { formatMail, mailIdsIn } from './prompts.js';

/** Where mail goes while a run is busy: the runtime's `enqueue`. */
export type MailSink = (text: string) => void;

/**
 * How many successfully acknowledged ids a desk still remembers: a spool file
 * whose removal failed folds its message into the inbox again after the ack,
 * and that comes soon after. Older ones are forgotten, so the memory is
 * bounded instead of one id per message ever delivered (issue 24).
 */
export const RECENT_ACKS = 1_024;

export class MailDesk {
  /** Acknowledged, but the ack has not gone through yet (a failed write, a busy lock): kept until it does. */
  private readonly unacked = new Set<string>();
  /** The last RECENT_ACKS ids acknowledged, oldest first. */
  private readonly acked = new Set<string>();
  /** Taken, not yet in a conversation. */
  private readonly held = new Map<string, Message>();
  /** Handed to a running conversation, waiting to appear in it. */
  private readonly inFlight = new Map<string, Message>();
  private sink: MailSink | null = null;
  private polling = false;
  /** A poll was asked for while one ran: run another after it (the mail may have come after its read). */
  private pollAgain = false;

  constructor(
    private readonly mailbox: MailboxStore,
    private readonly agent: string,
    private readonly log: (e: TeamEvent) => void,
    /** Returns true when the message was a control message it fully handled. */
    private readonly onControl: (m: Message) => boolean,
    private readonly recentAcks = RECENT_ACKS,
  ) {}

  /** Ordinary mail to answer now (the teammate is idle): held mail first, then a fresh batch. */
  async takeForIdle(): Promise<Message[]> {
    await this.takeBatch();
    const out = [...this.held.values()];
    this.held.clear();
    for (const m of out) this.inFlight.set(m.id, m);
    return out;
  }

  /** While a run is busy: new mail goes into the running conversation at its next tool boundary. */
  attach(sink: MailSink): void {
    this.sink = sink;
  }

  /** The run ended: mail it never entered is kept for the next idle turn. */
  detach(): void {
    this.sink = null;
    for (const [id, m] of this.inFlight) this.held.set(id, m);
    this.inFlight.clear();
  }

  /** Mail taken but not yet handed to a conversation (kept from a run that ended). */
  get holdsMail(): boolean {
    return this.held.size > 0;
  }

  async pollWhileBusy(): Promise<void> {
    if (this.polling) {
      this.pollAgain = true;
      return;
    }
    this.polling = true;
    try {
      do {
        this.pollAgain = false;
        await this.pollOnce();
      } while (this.pollAgain);
    } finally {
      this.polling = false;
    }
  }

  private async pollOnce(): Promise<void> {
    await this.takeBatch();
    if (!this.sink || this.held.size === 0) return;
    const batch = [...this.held.values()];
    this.held.clear();
    for (const m of batch) this.inFlight.set(m.id, m);
    this.sink(formatMail(batch));
  }

  /** Called with the text of every `user` event: mail seen there is in the conversation, so ack it. */
  async confirm(text: string): Promise<void> {
    // The message's own id, never the match: a match is a slice of `text` and would keep the whole
    // conversation text alive for as long as the id is remembered (RECENT_ACKS of them, issue 24).
    const ids = mailIdsIn(text).flatMap((id) => {
      const m = this.inFlight.get(id);
      return m ? [m.id] : [];
    });
    if (ids.length === 0) return;
    for (const id of ids) this.inFlight.delete(id);
    await this.ack(ids);
  }

  private async takeBatch(): Promise<void> {
    const batch = await this.mailbox.take(this.agent);
    const done: string[] = [];
    for (const m of batch) {
      const seen = this.unacked.has(m.id) || this.acked.has(m.id);
      if (seen || this.held.has(m.id) || this.inFlight.has(m.id)) {
        if (seen) done.push(m.id); // redelivered after a crash: already in a conversation
        continue;
      }
      if (this.onControl(m)) {
        done.push(m.id);
        continue;
      }
      this.held.set(m.id, m);
    }
    if (done.length) await this.ack(done);
  }

  /** How many acknowledged ids the desk remembers (bounded: see RECENT_ACKS). */
  get rememberedIds(): number {
    return this.unacked.size + this.acked.size;
  }

  private async ack(ids: string[]): Promise<void> {
    for (const id of ids) this.unacked.add(id);
    const done = await this.mailbox.ack(this.agent, ids);
    if (done.ok) this.rememberAcked(ids);
    for (const id of ids) this.log({ type: 'message_delivered', id, to: this.agent });
  }

  private rememberAcked(ids: readonly string[]): void {
    for (const id of ids) {
      this.unacked.delete(id);
      this.acked.delete(id); // re-inserted as the newest
      this.acked.add(id);
    }
    for (const id of this.acked) {
      if (this.acked.size <= this.recentAcks) break;
      this.acked.delete(id);
    }
  }
}
