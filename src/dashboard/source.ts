/**
 * The live source of `teamd top`: reads the team's files and says when they
 * change. fs.watch on `.team/state` (events, the merge queue), its `agents/`
 * and `requests/`, each agent's transcripts (through the spend reader), and on `.tasks`, `.mailboxes` and
 * `.cron`, with a modest interval as a fallback (a folder created later, a
 * file system without events) and so ages keep counting. Watch events are
 * hints: bursts are coalesced into one re-read.
 */
import { existsSync, watch, type FSWatcher } from 'node:fs';
import { join } from 'node:path';
import type { TeamConfig } from '../config/schema.js';
import { TranscriptSpendReader } from '../observe/cost.js';
import { BeatHints } from './beat-hints.js';
import { EventFeed } from './event-feed.js';
import { KeptMail } from './kept-mail.js';
import { LiveBoard } from './live-board.js';
import { readDashboardState } from './state.js';
import type { DashboardState, TeamSource } from './types.js';

export interface TeamSourceOptions {
  /** The fallback refresh (default 2000 ms). */
  refreshMs?: number;
  /** Coalescing window for file events (default 150 ms). */
  settleMs?: number;
  /** A fixed clock (tests); default Date.now. */
  now?: () => number;
  /** The transcript reader to use (`teamd web` reads its spends for the cost chart too). */
  reader?: TranscriptSpendReader;
}

/** How often `top`'s transcript listings are stat'ed whole (a missed watch event shows this late at most). */
export const TRANSCRIPT_SWEEP_MS = 60_000;

/**
 * Not `.team/state` recursively: Node 20 on Linux watches every file below it
 * one by one (and keeps a stat of each), and `transcripts/` holds a session
 * file per mail batch — ~20,000 watchers. Transcripts are watched per agent
 * folder by the spend reader (session-listing.ts); the rest here.
 */
const WATCHED: { path: string[]; recursive: boolean }[] = [
  { path: ['.team', 'state'], recursive: false },
  { path: ['.team', 'state', 'agents'], recursive: false },
  { path: ['.team', 'state', 'requests'], recursive: false },
  { path: ['.tasks'], recursive: false },
  { path: ['.mailboxes'], recursive: false },
  { path: ['.cron'], recursive: false },
];

/** Watches what exists of the team folders; folders that appear later are picked up on the next tick. */
class FolderWatchers {
  private readonly watchers = new Map<string, FSWatcher>();

  constructor(
    private readonly repoRoot: string,
    private readonly onChange: () => void,
    /** Told of each hint first; `false`: the hint needs no refresh. */
    private readonly onFile: (dir: string, name: string | null) => boolean = () => true,
  ) {}

  ensure(): void {
    for (const w of WATCHED) {
      const dir = join(this.repoRoot, ...w.path);
      if (this.watchers.has(dir) || !existsSync(dir)) continue;
      try {
        const watcher = watch(dir, { recursive: w.recursive, persistent: false }, (_event, name) => {
          if (this.onFile(dir, name)) this.onChange();
        });
        watcher.on('error', () => this.drop(dir));
        this.watchers.set(dir, watcher);
      } catch {
        // removed between the check and the watch, or out of inotify watches: the interval still refreshes
      }
    }
  }

  has(dir: string): boolean {
    return this.watchers.has(dir);
  }

  private drop(dir: string): void {
    this.watchers.get(dir)?.close();
    this.watchers.delete(dir);
  }

  close(): void {
    for (const dir of [...this.watchers.keys()]) this.drop(dir);
  }
}

export function createTeamSource(
  repoRoot: string,
  config: TeamConfig,
  options: TeamSourceOptions = {},
): TeamSource {
  // A long-lived reader: listings kept, files re-stat'ed on watch hints, swept whole every minute.
  const own = options.reader === undefined;
  const reader = options.reader ?? new TranscriptSpendReader(repoRoot, config.prices, { sweepMs: TRANSCRIPT_SWEEP_MS, watch: true });
  const feed = new EventFeed(repoRoot);
  const board = new LiveBoard(repoRoot);
  const mail = new KeptMail(repoRoot, config);
  const beats = new BeatHints(join(repoRoot, '.team', 'state', 'agents'));
  let watching: FolderWatchers | null = null;
  return {
    async load(): Promise<DashboardState> {
      const tasks = await board.current(watching?.has(join(repoRoot, '.tasks')) ?? false);
      const inboxes = await mail.current(watching?.has(join(repoRoot, '.mailboxes')) ?? false);
      return readDashboardState(repoRoot, config, {
        now: options.now?.(),
        reader,
        feed,
        tasks,
        tasksGeneration: board.generation,
        mail: inboxes,
      });
    },
    watch(onChange) {
      let timer: NodeJS.Timeout | null = null;
      const settle = (): void => {
        timer ??= setTimeout(() => {
          timer = null;
          onChange();
        }, options.settleMs ?? 150);
      };
      const folders = new FolderWatchers(repoRoot, settle, (dir, name) => {
        board.changed(dir, name);
        mail.changed(dir);
        return beats.matters(dir, name);
      });
      reader.onChange = settle;
      folders.ensure();
      watching = folders;
      const tick = setInterval(() => {
        folders.ensure();
        onChange();
      }, options.refreshMs ?? 2000);
      return () => {
        clearInterval(tick);
        if (timer) clearTimeout(timer);
        folders.close();
        watching = null;
        feed.close();
        reader.onChange = null;
        if (own) reader.close();
      };
    },
  };
}
