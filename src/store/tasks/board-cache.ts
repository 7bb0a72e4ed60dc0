/**
 * What a one-shot reader of the board (`teamd status`) read last time, kept in
 * `.team/state/board-cache.json`: each task file's inode, size and mtime with
 * the task it held. A file whose stamp still matches is taken from the cache,
 * not read and parsed again — a board of 10,000 finished tasks not yet old
 * enough for the archive was most of `status` (issue 24). The stamp is taken
 * before the file is read, so a write in between leaves a stamp that no longer
 * matches: read again next time, never a stale task. A file changed in the
 * last second is not kept (file times are coarse: a same-size write in place
 * within the same tick would keep the stamp — git's "racy" entries). Soft
 * state: a bad or stale entry is ignored, a failed write leaves the old file.
 */
import { lstatSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { writeFileAtomic } from '../atomic.js';
import { teamPaths } from '../paths.js';
import { readStateSync } from '../state-file.js';
import { TaskSchema } from '../types.js';
import type { TaskRead } from './task-files.js';
import type { TaskReadCache } from './types.js';

const EntrySchema = z.object({ stamp: z.string(), task: TaskSchema });
type Entry = z.infer<typeof EntrySchema>;

/** Large boards: 10,000 tasks of a few hundred bytes each fit many times over. */
const MAX_CACHE_BYTES = 64 * 1024 * 1024;

export const boardCacheOf = (repoRoot: string): string => join(teamPaths(repoRoot).state, 'board-cache.json');

/** How old a file's mtime must be before its read is kept (well above any file system's time tick). */
const SETTLED_MS = 1_000;

/** The stamp of a plain file and whether it is settled (a link, a FIFO or a missing file has none: always read). */
function stampOf(file: string, now: number): { stamp: string; settled: boolean } | null {
  const st = lstatSync(file, { throwIfNoEntry: false });
  if (!st?.isFile()) return null;
  return { stamp: `${st.ino}:${st.size}:${st.mtimeMs}`, settled: now - st.mtimeMs >= SETTLED_MS };
}

export class BoardReadCache implements TaskReadCache {
  private readonly known: Record<string, unknown>;
  private readonly next = new Map<string, Entry>();
  private readonly stamps = new Map<string, string>();
  private misses = 0;

  constructor(
    private readonly tasksDir: string,
    private readonly cacheFile: string,
    private readonly now: () => number = Date.now,
  ) {
    const read = readStateSync(cacheFile, z.record(z.string(), z.unknown()), MAX_CACHE_BYTES);
    this.known = read.kind === 'ok' ? read.value : {};
  }

  static forRepo(repoRoot: string): BoardReadCache {
    return new BoardReadCache(teamPaths(repoRoot).tasks, boardCacheOf(repoRoot));
  }

  get(stem: string): TaskRead | undefined {
    const found = stampOf(join(this.tasksDir, `${stem}.json`), this.now());
    if (found === null) return undefined;
    const { stamp } = found;
    if (found.settled) this.stamps.set(stem, stamp);
    const entry = EntrySchema.safeParse(this.known[stem]);
    if (!entry.success || entry.data.stamp !== stamp || entry.data.task.id !== stem) return undefined;
    this.next.set(stem, entry.data);
    return { kind: 'ok', task: entry.data.task, complete: true };
  }

  put(stem: string, read: TaskRead): void {
    this.misses++;
    const stamp = this.stamps.get(stem);
    if (stamp !== undefined && read.kind === 'ok' && read.complete) this.next.set(stem, { stamp, task: read.task });
  }

  /** Writes what this run saw, when anything differs from what it found (files read, files gone). */
  async save(): Promise<void> {
    if (this.misses === 0 && this.next.size === Object.keys(this.known).length) return;
    const text = JSON.stringify(Object.fromEntries(this.next));
    if (text.length > MAX_CACHE_BYTES) return;
    await writeFileAtomic(this.cacheFile, text, { durable: false }).catch(() => undefined);
  }
}
