/**
 * One more directory an agent's file tools may reach (`--add-dir`,
 * `permissions.additionalDirectories`), checked: resolved against a base
 * directory (`~` is the home folder), and it must exist and be a directory.
 */
import { realpathSync, statSync, type Stats } from 'node:fs';
import { resolve } from 'node:path';
import type { Outcome } from '../store/types.js';

/** `dir` (relative to `cwd`, `~` for the home folder) as a real path, or why it cannot be added. */
export function checkAddedDir(dir: string, cwd: string): Outcome<string> {
  if (dir.trim() === '') return { ok: false, error: 'an empty path' };
  if (dir.includes('\0')) return { ok: false, error: `${JSON.stringify(dir)} contains a NUL byte` };
  const home = process.env.HOME;
  const expanded = home !== undefined && (dir === '~' || dir.startsWith('~/')) ? home + dir.slice(1) : dir;
  const abs = resolve(cwd, expanded);
  const info = statOrNull(abs);
  if (info === null) return { ok: false, error: `${dir} does not exist (resolved to ${abs})` };
  if (!info.isDirectory()) return { ok: false, error: `${dir} is not a directory (resolved to ${abs})` };
  return { ok: true, value: realpathSync.native(abs) };
}

function statOrNull(abs: string): Stats | null {
  try {
    return statSync(abs);
  } catch {
    return null;
  }
}
