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
 * The file is sealed (board-cache-file.ts): a matching seal means its tasks
 * were checked against the schema when read, so they are not checked again.
 */
import { join } from 'node:path';
import { writeFileAtomic } from '../atomic.js';
import { teamPaths } from '../paths.js';
import { readSealed, sealedText, type Entry } from './board-cache-file.js';
import { fileStamp, SETTLED_MS, type BoardStamps } from './board-stamps.js';
import type { TaskRead } from './task-files.js';
import type { TaskReadCache } from './types.js';

/** Large boards: 10,000 tasks of a few hundred bytes each fit many times over. */
const MAX_CACHE_BYTES = 64 * 1024 * 1024;

export const boardCacheOf = (repoRoot: string): string => join(teamPaths(repoRoot).state, 'board-cache.json');

/** The stamp of a plain file and whether it is settled (a link, a FIFO or a missing file has none: always read). */
function stampOf(file: string, now: number): { stamp: string; settled: boolean } | null {
  const found = fileStamp(file);
  return found && { stamp: found.stamp, settled: now - found.mtimeMs >= SETTLED_MS };
}

/**
 * With a `cacheFile`, what the last run wrote is read once (sealed: see
 * board-cache-file.ts); without one (`teamd top`'s board, re-read whole every
 * minute), the cache lives in the process and each `endRun` keeps what the
 * run saw, already validated.
 */
export class BoardReadCache implements TaskReadCache {
  private fromFile: Map<string, Entry>;
  private fromMemory = new Map<string, Entry>();
  private next = new Map<string, Entry>();
  private readonly stamps = new Map<string, string>();
  private misses = 0;

  /** Stamps taken before this read began (a status's: see board-stamps.ts): no second `lstat` for those files. */
  private known: BoardStamps['files'] = new Map();

  constructor(
    private readonly tasksDir: string,
    private readonly cacheFile: string | null,
    private readonly now: () => number = Date.now,
  ) {
    this.fromFile = cacheFile === null ? new Map() : readSealed(cacheFile, MAX_CACHE_BYTES);
  }

  static forRepo(repoRoot: string, known?: BoardStamps['files']): BoardReadCache {
    const cache = new BoardReadCache(teamPaths(repoRoot).tasks, boardCacheOf(repoRoot));
    if (known) cache.known = known;
    return cache;
  }

  get(stem: string): TaskRead | undefined {
    const found = this.stampOf(stem);
    if (found === null) return undefined;
    if (found.settled) this.stamps.set(stem, found.stamp);
    const entry = this.entryOf(stem);
    if (entry?.stamp !== found.stamp || entry.task.id !== stem) return undefined;
    this.next.set(stem, entry);
    return { kind: 'ok', task: entry.task, complete: true };
  }

  put(stem: string, read: TaskRead): void {
    this.misses++;
    const stamp = this.stamps.get(stem);
    if (stamp !== undefined && read.kind === 'ok' && read.complete) this.next.set(stem, { stamp, task: read.task });
  }

  /** Writes what this run saw to the cache file, when anything differs from what it found (files read, files gone). */
  async save(): Promise<void> {
    const found = this.fromMemory.size + this.fromFile.size;
    // Nothing to keep and nothing kept: no file (a board of fresh tasks leaves `.team/state/` as it was).
    const changed = (this.misses > 0 && this.next.size > 0) || this.next.size !== found;
    const text = changed && this.cacheFile !== null ? sealedText(this.next) : '';
    if (text !== '' && text.length <= MAX_CACHE_BYTES)
      await writeFileAtomic(this.cacheFile!, text, { durable: false }).catch(() => undefined);
    this.endRun();
  }

  /** The next run starts from what this one saw (files gone since are dropped). */
  endRun(): void {
    this.fromMemory = this.next;
    this.fromFile = new Map();
    this.next = new Map();
    this.stamps.clear();
    this.known = new Map();
    this.misses = 0;
  }

  private stampOf(stem: string): { stamp: string; settled: boolean } | null {
    const now = this.now();
    const known = this.known.get(stem);
    if (known) return { stamp: known.stamp, settled: now - known.mtimeMs >= SETTLED_MS };
    return stampOf(join(this.tasksDir, `${stem}.json`), now);
  }

  private entryOf(stem: string): Entry | undefined {
    return this.fromMemory.get(stem) ?? this.fromFile.get(stem);
  }
}
