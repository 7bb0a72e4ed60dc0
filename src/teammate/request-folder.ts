import { mkdirSync, watch, type FSWatcher } from 'node:fs';

/**
 * A watcher on a folder of request files (made if missing), calling
 * `onChange` on any event — a hint to re-read; null where none can be had
 * (no inotify left, a read-only folder): the caller's poll alone then.
 */
export function folderWatcher(dir: string, onChange: () => void): FSWatcher | null {
  try {
    mkdirSync(dir, { recursive: true });
    const watcher = watch(dir, onChange);
    watcher.on('error', () => watcher.close()); // the poll carries on
    watcher.unref();
    return watcher;
  } catch {
    return null;
  }
}
