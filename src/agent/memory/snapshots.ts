/**
 * Undoing a change: a snapshot file (`.snapshots/<name>.<time>.md`) is put
 * back as `<name>.md`; a consolidation snapshot folder puts back every file
 * it holds. What is replaced is snapshotted in turn, so a restore can be
 * undone too.
 */
import { readdir, stat } from 'node:fs/promises';
import { basename, join, relative } from 'node:path';
import { writeFileAtomic } from '../../store/atomic.js';
import type { Fence } from '../../store/lock.js';
import type { Outcome } from '../../store/types.js';
import { memoryFile, parseMemory, readMemoryText } from './files.js';
import { rebuildIndex, snapshotDir, snapshotMemory, withMemoryLock } from './store.js';

async function filesOf(snapshot: string): Promise<string[]> {
  if (!(await stat(snapshot)).isDirectory()) return [snapshot];
  return (await readdir(snapshot)).filter((n) => n.endsWith('.md')).map((n) => join(snapshot, n));
}

async function restoreOne(dir: string, file: string, fence: Fence): Promise<Outcome<string>> {
  const text = await readMemoryText(file);
  if (!text.ok) return text;
  const entry = parseMemory(text.value, file);
  if (!entry.ok) return entry;
  await snapshotMemory(dir, entry.value.name);
  await writeFileAtomic(memoryFile(dir, entry.value.name), text.value, { fence });
  return { ok: true, value: entry.value.name };
}

/** Restores a snapshot file or folder (a path, or its name inside `.snapshots/`); the names restored. */
export async function restoreMemorySnapshot(dir: string, snapshot: string): Promise<Outcome<string[]>> {
  const path = snapshot.includes('/') ? snapshot : join(snapshotDir(dir), snapshot);
  if (relative(snapshotDir(dir), path).startsWith('..')) {
    return { ok: false, error: `${snapshot}: not inside ${snapshotDir(dir)}` };
  }
  return withMemoryLock(dir, async (fence) => {
    let files: string[];
    try {
      files = await filesOf(path);
    } catch (error) {
      return { ok: false, error: `${basename(path)}: ${(error as Error).message}` };
    }
    const restored: string[] = [];
    for (const file of files) {
      const one = await restoreOne(dir, file, fence);
      if (!one.ok) return one;
      restored.push(one.value);
    }
    await rebuildIndex(dir, fence);
    return { ok: true, value: restored };
  });
}
