import {
  mergeQueuePath,
  moveEntry,
  readMergeQueueFile,
  trimHistory,
  writeMergeQueueFile,
} from './merge-queue-file.js';
import type { EnqueueRequest, MergeEntry, MergeQueueFile, Outcome } from './types.js';

/**
 * The merge queue's entries: the file on disk and its copy in memory, kept
 * equal. Every change is applied to a copy, written atomically, and only then
 * becomes the state; changes run one after another, never interleaved.
 */
export class MergeQueueState {
  private chain: Promise<unknown> = Promise.resolve();

  private constructor(
    readonly file: string,
    private data: MergeQueueFile,
    private readonly historyLimit: number,
  ) {}

  static async load(
    repoRoot: string,
    integrationBranch: string,
    historyLimit: number,
  ): Promise<Outcome<MergeQueueState>> {
    const file = mergeQueuePath(repoRoot);
    const loaded = await readMergeQueueFile(file, integrationBranch);
    if (!loaded.ok) return loaded;
    return {
      ok: true,
      value: new MergeQueueState(file, { ...loaded.value, integrationBranch }, historyLimit),
    };
  }

  get entries(): readonly MergeEntry[] {
    return this.data.entries;
  }

  find(taskId: string): MergeEntry {
    const entry = this.data.entries.find((e) => e.taskId === taskId);
    if (!entry) throw new Error(`merge queue: no entry for task ${taskId}`);
    return entry;
  }

  enqueue(request: EnqueueRequest): Promise<MergeEntry> {
    return this.mutate((entries) => enqueueInto(entries, request));
  }

  update(taskId: string, change: (entry: MergeEntry) => MergeEntry): Promise<MergeEntry> {
    return this.mutate((entries) => {
      const index = entries.findIndex((e) => e.taskId === taskId);
      const current = entries[index];
      if (!current) throw new Error(`merge queue: no entry for task ${taskId}`);
      entries[index] = change(current);
      return entries[index];
    });
  }

  /** Waits for the changes already asked for. */
  async settled(): Promise<void> {
    await this.chain.catch(() => undefined);
  }

  private mutate<T>(change: (entries: MergeEntry[]) => T): Promise<T> {
    const run = this.chain.then(async () => {
      const entries = [...this.data.entries];
      const result = change(entries);
      const next = { ...this.data, entries: trimHistory(entries, this.historyLimit) };
      await writeMergeQueueFile(this.file, next);
      this.data = next;
      return result;
    });
    this.chain = run.catch(() => undefined);
    return run;
  }
}

/**
 * A task already queued is updated in place (a merging one is left alone);
 * one refused or merged before goes to the back of the queue again.
 */
function enqueueInto(entries: MergeEntry[], request: EnqueueRequest): MergeEntry {
  const now = new Date().toISOString();
  const index = entries.findIndex((e) => e.taskId === request.taskId);
  const existing = entries[index];
  if (existing?.state === 'merging') return existing;
  if (existing?.state === 'queued') {
    entries[index] = { ...existing, ...request, updatedAt: now };
    return entries[index];
  }
  if (existing) entries.splice(index, 1);
  const fresh = existing && existing.state !== 'cancelled'
    ? moveEntry({ ...existing, ...request }, 'queued', { enqueuedAt: now, refusal: null, mergeCommit: null })
    : newEntry(request, now);
  entries.push(fresh);
  return fresh;
}

function newEntry(request: EnqueueRequest, now: string): MergeEntry {
  return {
    ...request,
    state: 'queued',
    enqueuedAt: now,
    updatedAt: now,
    attempts: 0,
    branchTip: null,
    baseTip: null,
    mergeCommit: null,
    refusal: null,
    verifyPid: null,
  };
}
