/**
 * The session files of one agent, kept between refreshes of a long-lived
 * reader (`teamd top`, `teamd web`). Listing and stat'ing every session each
 * refresh is what `top` spent its time on with ~20,000 sessions (one per mail
 * batch; issue 24): here the folder is listed again only when its own stamp
 * changed (a session created, compressed or removed), and a file is stat'ed
 * again only when a watcher named it (`hint`), when it was written in the last
 * second (a write in the same tick as the last stat keeps its mtime), or in a
 * full sweep every `sweepMs` (longer for a large folder: `SWEEP_MS_PER_FILE`) — so a missed watch event costs at most that
 * delay. Without watch hints (`hinted: false`) every refresh is a full sweep,
 * as `sessionFileStats` does. `watch` gives the listing its own watcher on
 * the folder (one per agent, not one per file as Node 20's recursive watch
 * on Linux sets up: ~20,000 watchers and their stats, most of `top`'s RSS).
 */
import { readdirSync, statSync, watch, type FSWatcher } from 'node:fs';
import { join } from 'node:path';
import { FileStamps } from './file-stamps.js';
import { isCompressed, isSessionFile, sessionNames } from './transcript-files.js';
import type { SessionFileStat } from './transcript-view.js';

/**
 * A sweep stats every file (~9 µs each): with watch hints arriving, a folder
 * of N files is swept at most every N × this, so sweeps stay under ~0.1% of
 * a core (a folder of 25,000 sessions, one agent's share of weeks of mail:
 * every ~4 minutes, not every minute).
 */
export const SWEEP_MS_PER_FILE = 10;

/** How recent a write is still re-stat'ed every refresh (above any file system's time tick). */
const SETTLED_MS = 1_000;

export interface ListingChanges {
  changed: SessionFileStat[];
  /** Paths of the files gone since the last call. */
  removed: string[];
}

const byAge = (a: SessionFileStat, b: SessionFileStat): number => a.mtime - b.mtime || a.file.localeCompare(b.file);

export class SessionListing {
  /** Every file's size and mtime as last stat'ed (file-stamps.ts: ~100,000 sessions on weeks of history). */
  private readonly byName = new FileStamps();
  /** Names whose mtime was within `SETTLED_MS` of their last stat: re-stat'ed each refresh until it is not. */
  private readonly recentNames = new Set<string>();
  private readonly hints = new Set<string>();
  /** Changes not yet handed out by `changes` (null: gone). */
  private readonly pending = new Map<string, SessionFileStat | null>();
  private sorted: SessionFileStat[] = [];
  private dirStamp = '';
  private lastSweep = -Infinity;
  private watcher: FSWatcher | null = null;

  constructor(
    private readonly dir: string,
    private readonly sweepMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Whether the listing's own watcher is up (see `watch`). */
  get watching(): boolean {
    return this.watcher !== null;
  }

  /** Watches the folder: every event is a hint (a nameless one asks for a sweep); false when it cannot. */
  watch(onEvent: () => void): boolean {
    try {
      this.watcher ??= watch(this.dir, { persistent: false }, (_event, name) => {
        if (name) this.hint(name);
        else this.lastSweep = -Infinity;
        onEvent();
      });
      this.watcher.on('error', () => this.close());
      return true;
    } catch {
      return false;
    }
  }

  close(): void {
    this.watcher?.close();
    this.watcher = null;
  }

  /** A watcher saw `name` in this folder change. */
  hint(name: string): void {
    this.hints.add(name);
  }

  /** The session files, oldest first (as `sessionFileStats`); `hinted`: watch hints are arriving. */
  current(hinted: boolean): SessionFileStat[] {
    if (this.update(hinted)) this.sorted = [...this.byName.names()].map((name) => this.statOf(name)).sort(byAge);
    this.pending.clear();
    return this.sorted;
  }

  /**
   * What changed since the last call (files new or re-stamped, and files gone),
   * without sorting the rest: a reader that keeps totals (cost.ts) does work for
   * these only. The first call gives every file.
   */
  changes(hinted: boolean): ListingChanges {
    this.update(hinted);
    const changes: ListingChanges = { changed: [], removed: [] };
    for (const [name, stat] of this.pending)
      if (stat) changes.changed.push(stat);
      else changes.removed.push(join(this.dir, name));
    this.pending.clear();
    return changes;
  }

  /** Brings what is known up to date (see the header); true when anything changed. */
  private update(hinted: boolean): boolean {
    const now = this.now();
    const dir = statSync(this.dir, { throwIfNoEntry: false });
    if (!dir?.isDirectory()) return this.reset();
    const stamp = `${dir.ino}:${dir.mtimeMs}`;
    const sweep = !hinted || now - this.lastSweep >= Math.max(this.sweepMs, this.byName.size * SWEEP_MS_PER_FILE);
    let changed = false;
    // With its own watcher, a file created or removed is named by a hint too: the folder is listed only in
    // a sweep (20,000 names read again for each session a teammate starts: the listing's share of top's
    // idle CPU; issue 24). Hints from outside may name writes only: a new stamp lists the folder.
    const restamped = stamp !== this.dirStamp || now - dir.mtimeMs < SETTLED_MS;
    if (sweep || (restamped && !this.watching)) changed = this.relist(sweep);
    this.dirStamp = stamp;
    if (sweep) this.lastSweep = now;
    const hints = sweep ? [] : [...this.hints];
    this.hints.clear();
    for (const name of hints) changed = this.restatHinted(name) || changed;
    if (!sweep) for (const name of this.recent(now)) changed = this.restat(name) || changed;
    return changed;
  }

  /** A hinted name stat'ed, new or known, with the plain-over-compressed rule of `sessionNames`. */
  private restatHinted(name: string): boolean {
    if (!isSessionFile(name)) return false;
    if (isCompressed(name)) return this.byName.has(name.slice(0, -3)) ? false : this.restat(name);
    let changed = this.restat(name);
    // The plain form gone (gc compressed it): its compressed form, if any, is the session now; present: it is not.
    if (this.byName.has(name)) changed = this.forget(`${name}.gz`) || changed;
    else changed = this.restat(`${name}.gz`) || changed;
    return changed;
  }

  private statOf(name: string): SessionFileStat {
    return { file: join(this.dir, name), size: this.byName.sizeOf(name)!, mtime: this.byName.mtimeOf(name)! };
  }

  private reset(): boolean {
    for (const name of this.byName.names()) this.pending.set(name, null);
    this.byName.clear();
    this.recentNames.clear();
    this.hints.clear();
    this.dirStamp = '';
    this.sorted = [];
    return true;
  }

  /** Lists the folder: new files stat'ed, gone ones dropped, and with `all` every file stat'ed again. */
  private relist(all: boolean): boolean {
    let names: string[];
    try {
      names = sessionNames(readdirSync(this.dir));
    } catch {
      return this.reset();
    }
    const listed = new Set(names);
    let changed = false;
    for (const name of [...this.byName.names()])
      if (!listed.has(name)) changed = this.forget(name) || changed;
    for (const name of names) if (all || !this.byName.has(name)) changed = this.restat(name) || changed;
    return changed;
  }

  private recent(now: number): string[] {
    const out: string[] = [];
    for (const name of this.recentNames) {
      const mtime = this.byName.mtimeOf(name);
      if (mtime !== undefined && now - mtime < SETTLED_MS) out.push(name);
      else this.recentNames.delete(name);
    }
    return out;
  }

  /** Stats one file again; true when what is known of it changed. */
  private restat(name: string): boolean {
    // The folder is a joined path and the names plain ones (sessionNames): no join needed, ~100,000 times.
    const file = `${this.dir}/${name}`;
    const st = statSync(file, { throwIfNoEntry: false });
    if (!st) return this.forget(name);
    if (this.now() - st.mtimeMs < SETTLED_MS) this.recentNames.add(name);
    if (this.byName.matches(name, st.size, st.mtimeMs)) return false;
    this.byName.set(name, st.size, st.mtimeMs);
    this.pending.set(name, { file, size: st.size, mtime: st.mtimeMs });
    return true;
  }

  private forget(name: string): boolean {
    this.recentNames.delete(name);
    if (!this.byName.delete(name)) return false;
    this.pending.set(name, null);
    return true;
  }
}
