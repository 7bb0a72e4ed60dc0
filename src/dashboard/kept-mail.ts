/**
 * The mail panel of `teamd top`, read again only when a watcher saw
 * `.mailboxes/` change (and whole every minute anyway, as the board: a watch
 * event lost, an archive written without its inbox). Each read lists the
 * inboxes, reads every one and, for an empty inbox, the archive's last
 * message: on an idle team that was a fifth of a refresh's work for a panel
 * that had not changed (issue 24).
 */
import { join } from 'node:path';
import { rosterOf } from '../config/load.js';
import type { TeamConfig } from '../config/schema.js';
import { summaryCacheOf } from '../store/mailbox/archive-summary.js';
import { MailboxStore } from '../store/mailbox/index.js';
import type { MailboxView } from './types.js';

/** How often the mail panel is read whole again without a watch hint. */
export const MAIL_FULL_READ_MS = 60_000;

/** Each agent's unread count and latest message (the inbox's newest, else the archive's). */
export async function mailboxViews(repoRoot: string, config: TeamConfig): Promise<MailboxView[]> {
  const store = new MailboxStore(repoRoot, { summaryCache: summaryCacheOf(repoRoot) });
  const withInbox = await store.agents();
  const agents = [...new Set([...rosterOf(config).filter((a) => a !== 'user'), ...withInbox])];
  const views: MailboxView[] = [];
  for (const agent of agents) {
    const inbox = await store.peek(agent);
    const latest = inbox.at(-1) ?? (await store.history(agent, 1)).at(-1) ?? null;
    views.push({
      agent,
      unread: inbox.length,
      latest: latest && { from: latest.from, type: latest.type, content: latest.content, ts: latest.ts },
    });
  }
  return views;
}

export class KeptMail {
  private views: MailboxView[] | null = null;
  private readAt = 0;
  private dirty = false;

  constructor(
    private readonly repoRoot: string,
    private readonly config: TeamConfig,
  ) {}

  /** A watcher saw something change in `dir`. */
  changed(dir: string): void {
    if (dir === join(this.repoRoot, '.mailboxes')) this.dirty = true;
  }

  /** `watched`: a watcher is on `.mailboxes/`; without one every call reads the mail again. */
  async current(watched: boolean, now = Date.now()): Promise<MailboxView[]> {
    if (this.views && watched && !this.dirty && now - this.readAt <= MAIL_FULL_READ_MS) return this.views;
    // Cleared before the read: a change while it runs marks the panel for the next refresh.
    this.dirty = false;
    this.readAt = now;
    this.views = await mailboxViews(this.repoRoot, this.config);
    return this.views;
  }
}
