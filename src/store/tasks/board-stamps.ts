/**
 * The stamps of a board's files: for each task file its inode, size and
 * mtime, the same stamp board-cache.ts keys a task on. Taken before anything
 * is read, so a write in between leaves a stamp that no longer matches: a
 * reader that keeps what it computed under these stamps computes it again
 * next time, never shows a stale board (issue 24). One `lstat` per file and
 * nothing else: at 10,000 files a stat through `path.join` and a template
 * string was twice the cost of the system calls.
 */
import { createHash } from 'node:crypto';
import { lstatSync, readdirSync } from 'node:fs';

/** How old a file's mtime must be before what was read from it is kept (above any file system's time tick). */
export const SETTLED_MS = 1_000;

/** The stamp of a file's stat: enough to tell that it was replaced or rewritten. */
export const stampText = (st: { ino: number; size: number; mtimeMs: number }): string => `${st.ino}:${st.size}:${st.mtimeMs}`;

/** A plain file's stamp, or null (a link, a FIFO, a folder or a missing file has none: always read). */
export function fileStamp(file: string): { stamp: string; mtimeMs: number } | null {
  const st = lstatSync(file, { throwIfNoEntry: false });
  if (!st?.isFile()) return null;
  return { stamp: stampText(st), mtimeMs: st.mtimeMs };
}

/** `files`: each stem's stamp and mtime, for a read of the board that follows (board-cache.ts). */
export interface BoardStamps {
  digest: string;
  settled: boolean;
  files: Map<string, { stamp: string; mtimeMs: number }>;
}

/**
 * The stamps of every `*.json` entry of a task folder (as `listStems` lists
 * them), as one SHA-256: `stem stamp` lines in the folder's order. Two equal
 * digests are the same files with the same stamps; a folder listed in another
 * order gives another digest, which costs one more read, never a stale one.
 * `settled`: every file is older than `SETTLED_MS` at `now` (a file written
 * within the same tick as an in-place edit of the same size would keep its
 * stamp: git's "racy" entries). Null when the folder is not a plain folder or
 * an entry is not a plain file: such a board is always read.
 */
export function boardStamps(folder: string, now: number): BoardStamps | null {
  const self = lstatSync(folder, { throwIfNoEntry: false });
  if (!self?.isDirectory()) return null;
  let names: string[];
  try {
    names = readdirSync(folder);
  } catch {
    return null;
  }
  const hash = createHash('sha256');
  const files = new Map<string, { stamp: string; mtimeMs: number }>();
  let settled = true;
  for (const name of names) {
    if (!name.endsWith('.json') || name.length <= 5 || name.startsWith('.')) continue;
    const st = lstatSync(`${folder}/${name}`, { throwIfNoEntry: false });
    if (!st?.isFile()) return null;
    const stamp = stampText(st);
    hash.update(`${name}\0${stamp}\n`);
    files.set(name.slice(0, -5), { stamp, mtimeMs: st.mtimeMs });
    settled &&= now - st.mtimeMs >= SETTLED_MS;
  }
  return { digest: hash.digest('hex'), settled, files };
}
