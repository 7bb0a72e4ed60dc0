import { readdir } from 'node:fs/promises';

/**
 * The names (without `ext`) of the files in `folder` ending in `ext`. Hidden
 * entries are skipped: temp files of atomic writes and lock directories start with a dot.
 * A missing folder has no files.
 */
export async function listStems(folder: string, ext: string): Promise<string[]> {
  const entries = await readdir(folder, { withFileTypes: true }).catch(() => []);
  return entries
    .filter((e) => e.isFile() && e.name.endsWith(ext) && !e.name.startsWith('.'))
    .map((e) => e.name.slice(0, -ext.length))
    .sort();
}
