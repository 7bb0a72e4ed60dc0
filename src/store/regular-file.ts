/**
 * Opening a file teamd reads, or compresses, only when it is a regular file
 * reached without a link. Anyone who can write the repository (a teammate's
 * bash too) can put a link to any file of the user's, or a FIFO that blocks
 * an `open` forever, at a path teamd reads. The last path component is opened
 * `O_NOFOLLOW | O_NONBLOCK` (a link fails, a FIFO does not block), then the
 * open file is fstat'ed: anything but a regular file within `maxBytes` is
 * closed and refused (null).
 */
import { closeSync, constants, fstatSync, openSync, type Stats } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';

export const NO_FOLLOW_READ = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;

/** `path` open on this thread with its size, or null (gone, a link, a FIFO, a folder, over `maxBytes`). */
export function openRegularSync(path: string, maxBytes = Infinity): { fd: number; size: number } | null {
  let fd: number;
  try {
    fd = openSync(path, NO_FOLLOW_READ);
  } catch {
    return null;
  }
  const st = fstatSync(fd);
  if (st.isFile() && st.size <= maxBytes) return { fd, size: st.size };
  closeSync(fd);
  return null;
}

/** `openRegularSync` on the thread pool, with the file's stats. */
export async function openRegular(path: string, maxBytes = Infinity): Promise<{ handle: FileHandle; stats: Stats } | null> {
  const handle = await open(path, NO_FOLLOW_READ).catch(() => null);
  if (!handle) return null;
  const stats = await handle.stat();
  if (stats.isFile() && stats.size <= maxBytes) return { handle, stats };
  await handle.close();
  return null;
}
