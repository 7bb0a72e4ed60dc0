/**
 * The lead's one watcher over the team's folders. Events are hints: the
 * handler re-reads the one file named (the index is updated per file, never
 * by a rescan). Temp files of atomic writes and lock directories are ignored.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { basename, dirname, join, relative, sep } from 'node:path';
import { watch, type FSWatcher } from 'chokidar';

export type WatchKind = 'task' | 'mail' | 'cron';

export interface WatchHit {
  kind: WatchKind;
  /** The task id, mailbox owner or cron job id (the file name without `.json`). */
  id: string;
  removed: boolean;
}

/** Re-checks after a hit: past chokidar's 50 ms change throttle, and again in case timers ran late. */
const TRAILING_MS = [100, 1_000];

const FOLDERS: Record<string, WatchKind> = { '.tasks': 'task', '.mailboxes': 'mail', '.cron': 'cron' };

function classify(repoRoot: string, path: string, removed: boolean): WatchHit | null {
  const rel = relative(repoRoot, path);
  const [folder, ...rest] = rel.split(sep);
  const kind = folder ? FOLDERS[folder] : undefined;
  if (!kind || rest.length !== 1) return null; // archive/ and other subfolders are not watched
  const name = basename(path);
  if (!name.endsWith('.json') || name.startsWith('.')) return null;
  return { kind, id: name.slice(0, -'.json'.length), removed };
}

const ignored = (path: string): boolean => {
  const name = basename(path);
  return name.endsWith('.tmp') || name.endsWith('.lock') || basename(dirname(path)).endsWith('.lock') || name === 'archive';
};

export async function watchTeamFolders(repoRoot: string, onHit: (hit: WatchHit) => void, onError: (err: Error) => void): Promise<FSWatcher> {
  const folders = Object.keys(FOLDERS).map((f) => join(repoRoot, f));
  for (const f of folders) mkdirSync(f, { recursive: true });
  const watcher = watch(folders, { ignoreInitial: true, depth: 0, ignored, awaitWriteFinish: false });
  // chokidar drops (does not delay) a second 'change' of a path within 50 ms
  // of the first (and timers run late on a loaded machine), so every hit is
  // followed by trailing re-checks: the handler re-reads the file, and the
  // last write is never missed.
  const trailing = new Map<string, NodeJS.Timeout[]>();
  const hit = (removed: boolean) => (path: string) => {
    const h = classify(repoRoot, path, removed);
    if (!h) return;
    onHit(h);
    for (const t of trailing.get(path) ?? []) clearTimeout(t);
    const timers = TRAILING_MS.map((ms) => {
      const t = setTimeout(() => onHit({ ...h, removed: !existsSync(path) }), ms);
      t.unref();
      return t;
    });
    trailing.set(path, timers);
  };
  watcher.on('add', hit(false)).on('change', hit(false)).on('unlink', hit(true));
  watcher.on('error', (err) => onError(err instanceof Error ? err : new Error(String(err))));
  await new Promise<void>((resolve) => watcher.once('ready', () => resolve()));
  const close = watcher.close.bind(watcher);
  watcher.close = async () => {
    for (const timers of trailing.values()) for (const t of timers) clearTimeout(t);
    trailing.clear();
    await close();
  };
  return watcher;
}
