import { lstat, readdir } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Bytes a folder takes on disk, like `du -s`: allocated blocks of every file
 * under it, symlinks not followed. A file that vanishes during the walk (a
 * teammate deleting it) is skipped rather than failing the listing.
 */
export async function diskSize(path: string): Promise<number> {
  let stats;
  try {
    stats = await lstat(path);
  } catch {
    return 0;
  }
  const own = stats.blocks > 0 ? stats.blocks * 512 : stats.size;
  if (!stats.isDirectory()) return own;
  let names: string[];
  try {
    names = await readdir(path);
  } catch {
    return own;
  }
  let total = own;
  for (const name of names) total += await diskSize(join(path, name));
  return total;
}
