import { lstat, readdir } from 'node:fs/promises';

/**
 * The names (without `ext`) of the entries in `folder` ending in `ext`. Hidden
 * entries are skipped: temp files of atomic writes and lock directories start
 * with a dot. Links, FIFOs, devices and folders with such a name are listed
 * too, so that reading them reports each (a team file must be a regular file)
 * rather than skipping it in silence. A missing folder has no files, and so
 * has a folder that is a symbolic link: it is never followed (see
 * team-folders.ts, which reports it).
 */
export async function listStems(folder: string, ext: string): Promise<string[]> {
  const self = await lstat(folder).catch(() => null);
  if (!self?.isDirectory()) return [];
  const names = await readdir(folder).catch(() => []);
  return names
    .filter((name) => name.endsWith(ext) && name.length > ext.length && !name.startsWith('.'))
    .map((name) => name.slice(0, -ext.length))
    .sort();
}
