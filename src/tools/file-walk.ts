/**
 * Lists files below a folder for glob and the in-process grep: never into
 * `.git` or `node_modules`, never through a symlink that leads out of root.
 */
import { realpath, stat } from 'node:fs/promises';
import { glob } from 'tinyglobby';
import { isInside } from './paths.js';

export const ALWAYS_IGNORED = ['**/.git/**', '**/node_modules/**'];

export interface FoundFile {
  absPath: string;
  mtimeMs: number;
}

/** Files under `base` matching `patterns` (relative to base), confined to `root` (a real path). */
export async function findFiles(
  root: string,
  base: string,
  patterns: string[],
  signal?: AbortSignal,
): Promise<FoundFile[]> {
  const paths = await glob(patterns, {
    cwd: base,
    absolute: true,
    dot: true,
    onlyFiles: true,
    followSymbolicLinks: false,
    expandDirectories: false,
    ignore: ALWAYS_IGNORED,
    signal,
  });
  const found = await Promise.all(paths.map((p) => confined(root, p)));
  return found.filter((f): f is FoundFile => f !== null);
}

async function confined(root: string, absPath: string): Promise<FoundFile | null> {
  try {
    const real = await realpath(absPath);
    if (!isInside(root, real)) return null;
    const info = await stat(real);
    return info.isFile() ? { absPath, mtimeMs: info.mtimeMs } : null;
  } catch {
    return null; // vanished or a dangling link
  }
}

/** Refuses patterns that would climb out of the search folder. */
export function checkPattern(pattern: string): string | null {
  if (pattern.startsWith('/'))
    return `the pattern ${pattern} is absolute: give the folder as \`path\` and a pattern relative to it`;
  if (pattern.split('/').includes('..'))
    return `the pattern ${pattern} climbs out with "..": give the folder as \`path\` instead`;
  return null;
}
