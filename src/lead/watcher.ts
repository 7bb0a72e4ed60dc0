/**
 * The lead's one watcher over the team's folders: one `fs.watch` per folder
 * (one inotify watch each, however many files), never a rescan. Events are
 * hints: the handler re-reads the one file named. Hits on one file are
 * coalesced — one handler run at a time per file, and one more after it when
 * events came in meanwhile — so the last write is always read after it
 * happened. Temp files of atomic writes and lock directories are ignored.
 */
import { watch, type FSWatcher } from 'node:fs';
import { lstatSync, mkdirSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { spoolOwner } from '../store/mailbox/spool.js';

export type WatchKind = 'task' | 'mail' | 'cron';

export interface WatchHit {
  kind: WatchKind;
  /** The task id, mailbox owner or cron job id (the file name without `.json`). */
  id: string;
}

export interface TeamWatcher {
  close(): Promise<void>;
}

/** One late re-check per burst, in case the kernel dropped events (an inotify queue overflow says nothing). */
const SETTLE_RECHECK_MS = 1_000;

const FOLDERS: Record<string, WatchKind> = { '.tasks': 'task', '.mailboxes': 'mail', '.cron': 'cron' };

/**
 * `<id>.json`, not hidden (temp files and locks are hidden), else null. A
 * message waiting in a spool, `.mailboxes/<agent>@<message-id>.json`, names
 * its recipient (`@` is in no id).
 */
export function idOfFileName(name: string): string | null {
  if (!name.endsWith('.json') || name.startsWith('.')) return null;
  return spoolOwner(name) ?? name.slice(0, -'.json'.length);
}

/** Runs the handler for a key one at a time, once more when hit while running. */
class Coalescer {
  private readonly running = new Map<string, boolean>();

  constructor(private readonly run: (hit: WatchHit) => Promise<void> | void) {}

  hit(key: string, hit: WatchHit): void {
    if (this.running.has(key)) {
      this.running.set(key, true);
      return;
    }
    this.running.set(key, false);
    void this.loop(key, hit);
  }

  private async loop(key: string, hit: WatchHit): Promise<void> {
    do {
      this.running.set(key, false);
      await Promise.resolve(this.run(hit)).catch(() => undefined);
    } while (this.running.get(key));
    this.running.delete(key);
  }
}

export async function watchTeamFolders(
  repoRoot: string,
  onHit: (hit: WatchHit) => Promise<void> | void,
  onError: (err: Error) => void,
): Promise<TeamWatcher> {
  const coalescer = new Coalescer(onHit);
  const settle = new Map<string, NodeJS.Timeout>();
  let closed = false;
  const hit = (kind: WatchKind, id: string): void => {
    if (closed) return;
    const key = `${kind}/${id}`;
    coalescer.hit(key, { kind, id });
    clearTimeout(settle.get(key));
    const timer = setTimeout(() => {
      settle.delete(key);
      if (!closed) coalescer.hit(key, { kind, id });
    }, SETTLE_RECHECK_MS);
    timer.unref();
    settle.set(key, timer);
  };
  const folders = Object.entries(FOLDERS).map(
    ([name, kind]) => new FolderWatch(join(repoRoot, name), (id) => hit(kind, id), onError),
  );
  for (const f of folders) f.open();
  // A folder removed or swapped for another keeps its old watch (inotify follows the inode): look now and then.
  const check = setInterval(() => {
    for (const f of folders) f.checkStillSame();
  }, FOLDER_CHECK_MS);
  check.unref();
  return {
    close: async () => {
      closed = true;
      clearInterval(check);
      for (const t of settle.values()) clearTimeout(t);
      settle.clear();
      for (const f of folders) f.close();
    },
  };
}

const FOLDER_CHECK_MS = 2_000;

/** The folder's identity; null when it is missing, not a folder, or a symbolic link (never followed). */
function identityOf(folder: string): string | null {
  try {
    const s = lstatSync(folder);
    return s.isDirectory() ? `${s.ino}:${s.birthtimeMs}` : null;
  } catch {
    return null;
  }
}

/** One folder's `fs.watch`, re-opened (and the folder re-read) when the folder at that path changes. */
class FolderWatch {
  private watcher: FSWatcher | null = null;
  /** The folder's identity when watched: inode numbers are reused at once, so with its birth time. */
  private identity: string | null = null;
  private failing = false;

  constructor(
    private readonly folder: string,
    private readonly onFile: (id: string) => void,
    private readonly onError: (err: Error) => void,
  ) {}

  open(): void {
    try {
      mkdirSync(this.folder, { recursive: true });
      this.identity = identityOf(this.folder);
      // A link (or a file) in the folder's place is not watched: it would lead out of the repository.
      if (this.identity === null) throw new Error('is not a real folder (a symbolic link?); not watched');
      const w = watch(this.folder, { persistent: true }, (_event, name) => {
        // No name (some platforms, or an overflow): look at every file once.
        if (name === null) void this.rescan();
        // The folder itself went (inotify names it): watch whatever is there now.
        else if (String(name) === basename(this.folder)) this.checkStillSame();
        else this.named(String(name));
      });
      w.on('error', (err) => this.fail(err));
      this.watcher = w;
      this.failing = false;
    } catch (err) {
      this.fail(err as Error);
    }
  }

  checkStillSame(): void {
    if (this.watcher && identityOf(this.folder) === this.identity) return;
    this.close();
    this.open();
    if (this.watcher) void this.rescan();
  }

  close(): void {
    this.watcher?.close();
    this.watcher = null;
  }

  private named(name: string): void {
    const id = idOfFileName(name);
    if (id) this.onFile(id);
  }

  private async rescan(): Promise<void> {
    for (const name of await readdir(this.folder).catch(() => [])) this.named(name);
  }

  /** Reported once per failing spell; the periodic check re-opens it when the folder is back. */
  private fail(err: Error): void {
    this.close();
    if (!this.failing) this.onError(new Error(`${this.folder}: ${err.message}`));
    this.failing = true;
  }
}
