import { eventLogPath } from '../observe/event-log.js';
import { EventTail, readLastEvents } from '../observe/event-reader.js';
import type { LoggedEvent } from '../observe/types.js';

const LIFECYCLE = new Set(['daemon_started', 'team_finished', 'daemon_stopped']);
/**
 * How far back from the end the newest lifecycle event is looked for (a live
 * log of weeks holds a million events and maybe none of these: reading it all
 * was most of `top`'s first frame).
 */
const LIFECYCLE_SCAN_BYTES = 32 * 1024 * 1024;

/**
 * The events `teamd top` shows, kept current from where the last refresh
 * left off: the newest `keep` events, how many were seen, and whether the
 * last run of the lead ended. A refresh reads only what was appended.
 */
export class EventFeed {
  private readonly tail: EventTail;
  private lastLifecycle: string | null = null;
  /** The log before the first poll not yet looked at for a lifecycle event (`ended` looks, once, when asked). */
  private pastUnread = false;
  recent: LoggedEvent[] = [];
  /** Events seen since the feed started (the first read's window included). */
  count = 0;

  constructor(
    private readonly repoRoot: string,
    private readonly keep = 50,
  ) {
    this.tail = new EventTail(eventLogPath(repoRoot), keep);
  }

  /** The events appended since the last poll (none on the first: those are the past, not news). */
  poll(): LoggedEvent[] {
    const read = this.tail.poll();
    if (read.first) this.pastUnread = true;
    for (const e of read.events)
      if (LIFECYCLE.has(e.type)) {
        this.lastLifecycle = e.type;
        this.pastUnread = false;
      }
    this.count += read.events.length;
    this.recent = [...this.recent, ...read.events].slice(-this.keep);
    return read.first ? [] : read.events;
  }

  /** The last run of the lead ended (team_finished or daemon_stopped after its daemon_started). */
  get ended(): boolean {
    if (this.pastUnread) {
      this.pastUnread = false;
      this.lastLifecycle = this.lastLifecycleOnDisk();
    }
    return this.lastLifecycle === 'team_finished' || this.lastLifecycle === 'daemon_stopped';
  }

  /** Once, backwards from the end: the newest lifecycle event. */
  private lastLifecycleOnDisk(): string | null {
    const found = readLastEvents(eventLogPath(this.repoRoot), 1, (e) => LIFECYCLE.has(e.type), undefined, LIFECYCLE_SCAN_BYTES);
    return found.events[0]?.type ?? null;
  }

  close(): void {
    this.tail.close();
  }
}
