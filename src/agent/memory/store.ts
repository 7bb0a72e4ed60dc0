/**
 * The memory folder: listing, writing (snapshot first), and the index. Every
 * change runs under the folder's lock (the lock of MEMORY.md) and writes
 * atomically; readers need no lock.
 */
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { copyFile, mkdir, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from '../../store/atomic.js';
import { LockLostError, withLock, type Fence, type LockOptions } from '../../store/lock.js';
import type { Outcome } from '../../store/types.js';
import { indexLine, memoryFile, readMemory, renderMemory, sanitizeMemoryName } from './files.js';
import {
  MEMORY_INDEX,
  MemoryFrontMatterSchema,
  SNAPSHOT_DIR,
  type MemoryEntry,
  type MemoryInput,
} from './types.js';

export const memoryIndexFile = (dir: string): string => join(dir, MEMORY_INDEX);
export const snapshotDir = (dir: string): string => join(dir, SNAPSHOT_DIR);

/**
 * Runs `fn` holding the memory folder's cross-process lock; every write under
 * it passes the hold's Fence, so a holder stalled past the lock's staleness
 * fails (LockLostError) instead of overwriting what another process wrote.
 */
export const withMemoryLock = <T>(
  dir: string,
  fn: (fence: Fence) => Promise<T>,
  lock?: LockOptions,
): Promise<T> => withLock(memoryIndexFile(dir), fn, lock);

export interface MemoryListing {
  entries: MemoryEntry[];
  /** Files that are not valid memories (named, with the field at fault); they are left alone. */
  problems: string[];
}

export async function listMemories(dir: string): Promise<MemoryListing> {
  let names: string[];
  try {
    names = (await readdir(dir)).filter((n) => n.endsWith('.md') && n !== MEMORY_INDEX && !n.startsWith('.'));
  } catch {
    return { entries: [], problems: [] };
  }
  const read = await Promise.all(names.sort().map((n) => readMemory(join(dir, n))));
  return {
    entries: read.flatMap((r) => (r.ok ? [r.value] : [])),
    problems: read.flatMap((r) => (r.ok ? [] : [r.error])),
  };
}

export function renderIndex(entries: MemoryEntry[]): string {
  const lines = entries.map(indexLine);
  return `# Memory index\n\n${lines.length > 0 ? lines.join('\n') : '(no memories yet)'}\n`;
}

/** Rewrites MEMORY.md from the files (call with the lock held, passing its fence). */
export async function rebuildIndex(dir: string, fence: Fence): Promise<MemoryEntry[]> {
  const { entries } = await listMemories(dir);
  await writeFileAtomic(memoryIndexFile(dir), renderIndex(entries), { fence });
  return entries;
}

const stamp = (): string => new Date().toISOString().replace(/[:.]/g, '-');

/** Copies `<name>.md` to `.snapshots/<name>.<time>.md` (call with the lock held); null when there is no file. */
export async function snapshotMemory(dir: string, name: string): Promise<string | null> {
  const file = memoryFile(dir, name);
  if (!existsSync(file)) return null;
  await mkdir(snapshotDir(dir), { recursive: true });
  // time, process and a random part: two snapshots never share a name, even within one millisecond
  const copy = join(
    snapshotDir(dir),
    `${name}.${stamp()}.${process.pid}-${randomBytes(3).toString('hex')}.md`,
  );
  await copyFile(file, copy);
  return copy;
}

export interface WrittenMemory {
  entry: MemoryEntry;
  /** The previous version's copy, when a memory of that name existed. */
  snapshot: string | null;
}

function validated(input: MemoryInput): Outcome<Omit<MemoryEntry, 'file'>> {
  const name = sanitizeMemoryName(input.name);
  if (!name.ok) return name;
  const front = { name: name.value, description: input.description.trim(), type: input.type.trim() };
  const parsed = MemoryFrontMatterSchema.safeParse(front);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    return { ok: false, error: `memory ${name.value}: ${issue.path.join('.')}: ${issue.message}` };
  }
  return { ok: true, value: { ...parsed.data, body: input.body.trim(), updated: new Date().toISOString() } };
}

/** Writes one memory (snapshotting what it replaces) and the index, under the lock. */
export async function writeMemory(
  dir: string,
  input: MemoryInput,
  lock?: LockOptions,
): Promise<Outcome<WrittenMemory>> {
  const checked = validated(input);
  if (!checked.ok) return checked;
  const entry = { ...checked.value, file: memoryFile(dir, checked.value.name) };
  try {
    return await withMemoryLock(
      dir,
      async (fence) => {
        const snapshot = await snapshotMemory(dir, entry.name);
        await writeFileAtomic(entry.file, renderMemory(entry), { fence });
        await rebuildIndex(dir, fence);
        return { ok: true, value: { entry, snapshot } };
      },
      lock,
    );
  } catch (err) {
    if (err instanceof LockLostError) return { ok: false, error: `memory ${entry.name}: ${err.message}` };
    throw err;
  }
}
