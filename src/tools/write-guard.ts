/**
 * What `write` and `edit` refuse beyond a path outside the root (paths.ts):
 * git's own data (a `.git` anywhere in the path: a redirected worktree `.git`
 * or a config with `core.fsmonitor` would run commands in teamd's git), a
 * file with more than one hard link (the other name may be outside the root,
 * and would change too), and a file on another file system than the root (a
 * mount inside it). The last two are checked again on the open file when
 * writing, so a file swapped in between is caught too.
 */
import { constants, type Stats } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Outcome } from '../store/types.js';

/** True for a path segment git would take as `.git` (any case; trailing dots and spaces as Windows drops them). */
export function isGitSegment(segment: string): boolean {
  return segment.replace(/[. ]+$/, '').toLowerCase() === '.git';
}

/** Refuses `absPath` (real, inside `realRoot`) when a segment below the root is `.git`. */
export function refuseGitPath(realRoot: string, absPath: string, shown: string): Outcome<void> {
  const segments = path.relative(realRoot, absPath).split(path.sep);
  if (!segments.some(isGitSegment)) return { ok: true, value: undefined };
  return {
    ok: false,
    error:
      `${shown} is inside git's own data (.git): the file tools never write there (the repository's ` +
      `git dir, its config and hooks are not a task's to change). Change the working files instead.`,
  };
}

/** The device of the root, for `whyNotPlainFile`. */
export async function deviceOf(dir: string): Promise<number> {
  return (await stat(dir)).dev;
}

/** Refuses a file with more than one link, or a file or folder on another device than the root; null when fine. */
export function whyNotPlainFile(info: Stats, rootDev: number, shown: string): string | null {
  if (info.isFile() && info.nlink > 1) {
    return (
      `${shown} has ${info.nlink} hard links: it is the same file as another path (which may be ` +
      `outside the working directory), and writing would change that one too. To work on a copy of ` +
      `its own, replace the link with a new file first (bash: cp ${shown} ${shown}.new && mv ${shown}.new ${shown}).`
    );
  }
  if (info.dev !== rootDev) {
    return `${shown} is on another file system than the working directory (a mount inside it); the file tools only write files of the working directory's own file system.`;
  }
  return null;
}

/**
 * Writes `content` to `absPath` in place (an existing file keeps its mode),
 * refusing, on the opened file itself, a symlink, a hard-linked file or one on
 * another device.
 */
export async function writeGuarded(
  absPath: string,
  content: string,
  rootDev: number,
  shown: string,
): Promise<Outcome<void>> {
  const flags = constants.O_WRONLY | constants.O_CREAT | constants.O_NOFOLLOW;
  let handle;
  try {
    handle = await open(absPath, flags, 0o666);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ELOOP') return { ok: false, error: `${shown} became a symlink; refusing to follow it.` };
    throw err;
  }
  try {
    const info = await handle.stat();
    const refusal = info.isFile() ? whyNotPlainFile(info, rootDev, shown) : `${shown} is not a regular file.`;
    if (refusal !== null) return { ok: false, error: refusal };
    await handle.truncate(0);
    await handle.writeFile(content, 'utf8');
    return { ok: true, value: undefined };
  } finally {
    await handle.close();
  }
}
