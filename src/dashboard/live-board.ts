import { join } from 'node:path';
import { BoardReadCache } from '../store/tasks/board-cache.js';
import { TaskStore } from '../store/tasks/index.js';

/** How often the board is read whole again anyway (a watch event lost, a file system without events). */
const FULL_READ_MS = 60_000;

/**
 * The board `teamd top` shows, read once and then kept current one file at a
 * time from the watcher's hints (a refresh re-reads only the files that
 * changed), so a refresh costs per change, not per task.
 */
export class LiveBoard {
  private store: TaskStore | null = null;
  private openedAt = 0;
  private readonly dirty = new Set<string>();
  private everything = false;
  /**
   * Counts changes to the board handed out: a new read, or a file re-read
   * into it. The same store at the same generation is the same board, so
   * what a refresh derives from it (the graph's nodes) can be kept.
   */
  generation = 0;
  /** The whole re-read every minute opens only the files that changed since the last one. */
  private readonly reads: BoardReadCache;

  constructor(private readonly repoRoot: string) {
    this.reads = new BoardReadCache(join(repoRoot, '.tasks'), null);
  }

  /** A watcher saw `name` change in `dir` (no name: anything may have). */
  changed(dir: string, name: string | null): void {
    if (dir !== join(this.repoRoot, '.tasks')) return;
    if (name === null) this.everything = true;
    else if (name.endsWith('.json')) this.dirty.add(name);
  }

  /** `watched`: a watcher is on `.tasks/` and tells of changes; without one, every call reads the board whole. */
  async current(watched: boolean, now = Date.now()): Promise<TaskStore> {
    if (!this.store || !watched || this.everything || now - this.openedAt > FULL_READ_MS) {
      this.store = await TaskStore.open(this.repoRoot, { normalise: false, readCache: this.reads });
      this.reads.endRun();
      this.openedAt = now;
      this.everything = false;
      this.dirty.clear();
      this.generation += 1;
      return this.store;
    }
    for (const name of [...this.dirty]) {
      this.dirty.delete(name);
      const result = await this.store.refresh(join(this.repoRoot, '.tasks', name));
      if (result.kind !== 'ignored') this.generation += 1;
    }
    return this.store;
  }
}
