/**
 * Consolidation: once a memory folder holds more than `threshold` memories,
 * duplicates are merged. Two memories are duplicates when their names are
 * equal ignoring case and separators, or when they have the same type and
 * their words (description and content) overlap by `similarity` (Jaccard).
 * Each group keeps its most recently updated memory, whose content gains the
 * paragraphs of the others it lacked; the others are removed. Every file the
 * merge touches is first copied to `.snapshots/consolidate-<time>/`, so
 * `restoreMemorySnapshot(dir, thatFolder)` undoes it. Runs under the lock.
 */
import { rmSync } from 'node:fs';
import { mkdir, copyFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { writeFileAtomic } from '../../store/atomic.js';
import { renderMemory } from './files.js';
import type { Fence, LockOptions } from '../../store/lock.js';
import { listMemories, rebuildIndex, snapshotDir, withMemoryLock } from './store.js';
import type { MemoryEntry } from './types.js';

export interface ConsolidateOptions {
  /** Consolidate only past this many memories. Default 40. */
  threshold?: number;
  /** Word overlap (0–1) from which two memories of one type are duplicates. Default 0.8. */
  similarity?: number;
  /** Lock options (tests: a short staleness, a stop inside the critical section). */
  lock?: LockOptions;
}

export interface ConsolidateResult {
  consolidated: boolean;
  before: number;
  after: number;
  merges: { into: string; from: string[] }[];
  /** The snapshot folder (restorable), when something was merged. */
  snapshot: string | null;
}

const words = (e: MemoryEntry): Set<string> =>
  new Set(
    `${e.description} ${e.body}`
      .toLowerCase()
      .split(/[^\p{L}\p{N}]+/u)
      .filter((w) => w.length >= 3),
  );

function jaccard(a: Set<string>, b: Set<string>): number {
  if (a.size === 0 && b.size === 0) return 1;
  let shared = 0;
  for (const w of a) if (b.has(w)) shared++;
  return shared / (a.size + b.size - shared);
}

const nameKey = (name: string): string => name.toLowerCase().replace(/[._-]+/g, '');

/** Groups of duplicates (each of two or more), by union-find over every pair. */
export function duplicateGroups(entries: MemoryEntry[], similarity: number): MemoryEntry[][] {
  const parent = entries.map((_, i) => i);
  const find = (i: number): number => (parent[i] === i ? i : (parent[i] = find(parent[i]!)));
  const sets = entries.map(words);
  for (let i = 0; i < entries.length; i++) {
    for (let j = i + 1; j < entries.length; j++) {
      const [a, b] = [entries[i]!, entries[j]!];
      const same =
        nameKey(a.name) === nameKey(b.name) ||
        (a.type === b.type && jaccard(sets[i]!, sets[j]!) >= similarity);
      if (same) parent[find(j)] = find(i);
    }
  }
  const groups = new Map<number, MemoryEntry[]>();
  entries.forEach((e, i) => groups.set(find(i), [...(groups.get(find(i)) ?? []), e]));
  return [...groups.values()].filter((g) => g.length > 1);
}

function mergeGroup(group: MemoryEntry[]): { keep: MemoryEntry; drop: MemoryEntry[] } {
  const sorted = [...group].sort(
    (a, b) => (b.updated ?? '').localeCompare(a.updated ?? '') || a.name.localeCompare(b.name),
  );
  const keep = sorted[0]!;
  const paragraphs = keep.body.split(/\n{2,}/);
  for (const other of sorted.slice(1)) {
    for (const p of other.body.split(/\n{2,}/))
      if (!paragraphs.some((q) => q.trim() === p.trim())) paragraphs.push(p);
  }
  return {
    keep: { ...keep, body: paragraphs.join('\n\n'), updated: new Date().toISOString() },
    drop: sorted.slice(1),
  };
}

async function snapshotAll(dir: string, files: string[]): Promise<string> {
  const folder = join(
    snapshotDir(dir),
    `consolidate-${new Date().toISOString().replace(/[:.]/g, '-')}-${process.pid}`,
  );
  await mkdir(folder, { recursive: true });
  await Promise.all(files.map((f) => copyFile(f, join(folder, basename(f)))));
  return folder;
}

/** Removes a merged-away memory only while the lock is still ours (else LockLostError, nothing removed). */
function removeFenced(file: string, fence: Fence): void {
  fence.verify(file);
  rmSync(file, { force: true });
}

export async function consolidateMemories(
  dir: string,
  opts: ConsolidateOptions = {},
): Promise<ConsolidateResult> {
  return withMemoryLock(
    dir,
    async (fence) => {
      const { entries } = await listMemories(dir);
      const none = {
        consolidated: false,
        before: entries.length,
        after: entries.length,
        merges: [],
        snapshot: null,
      };
      if (entries.length <= (opts.threshold ?? 40)) return none;
      const groups = duplicateGroups(entries, opts.similarity ?? 0.8);
      if (groups.length === 0) return none;
      const snapshot = await snapshotAll(
        dir,
        groups.flat().map((e) => e.file),
      );
      const merges: ConsolidateResult['merges'] = [];
      for (const group of groups) {
        const { keep, drop } = mergeGroup(group);
        await writeFileAtomic(keep.file, renderMemory(keep), { fence });
        for (const e of drop) removeFenced(e.file, fence);
        merges.push({ into: keep.name, from: drop.map((e) => e.name) });
      }
      const after = (await rebuildIndex(dir, fence)).length;
      return { consolidated: true, before: entries.length, after, merges, snapshot };
    },
    opts.lock,
  );
}
