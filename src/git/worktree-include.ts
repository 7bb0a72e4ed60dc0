import { existsSync } from 'node:fs';
import { copyFile, mkdir, realpath, stat } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, sep } from 'node:path';
import { git } from './run-git.js';
import { TEAM_FOLDERS, type Outcome } from './types.js';

/** Lists files a new worktree needs but git does not carry (`.env`, local config). */
export const WORKTREE_INCLUDE_FILE = '.worktreeinclude';

/**
 * Copies into `worktree` the files of the main checkout that match the
 * gitignore-style patterns of `.worktreeinclude`. Git does the matching
 * (`ls-files --others --ignored --exclude-from`), so the patterns mean exactly
 * what they mean in `.gitignore`. Tracked files are already in the worktree;
 * only untracked ones are copied, and only real files inside the repository
 * (a symlink pointing outside it is skipped).
 */
export async function copyIncludedFiles(repoRoot: string, worktree: string): Promise<Outcome<string[]>> {
  const patterns = join(repoRoot, WORKTREE_INCLUDE_FILE);
  if (!existsSync(patterns)) return { ok: true, value: [] };
  const listed = await git(
    repoRoot,
    ['ls-files', '-z', '--others', '--ignored', `--exclude-from=${patterns}`],
    { raw: true },
  );
  if (!listed.ok) return listed;
  const files = listed.value.split('\0').filter((f) => f !== '' && !inTeamFolder(f));
  const root = await realpath(repoRoot);
  const copied: string[] = [];
  for (const file of files) {
    const done = await copyInside(root, repoRoot, worktree, file);
    if (!done.ok) return done;
    if (done.value) copied.push(file);
  }
  return { ok: true, value: copied };
}

function inTeamFolder(file: string): boolean {
  const first = file.split('/')[0] ?? '';
  return (TEAM_FOLDERS as readonly string[]).includes(first);
}

async function copyInside(
  root: string,
  repoRoot: string,
  worktree: string,
  file: string,
): Promise<Outcome<boolean>> {
  const source = join(repoRoot, file);
  try {
    const real = await realpath(source);
    if (!isInside(root, real) || !(await stat(real)).isFile()) return { ok: true, value: false };
    await mkdir(dirname(join(worktree, file)), { recursive: true });
    await copyFile(real, join(worktree, file));
    return { ok: true, value: true };
  } catch (err) {
    return {
      ok: false,
      error: `copying ${file} listed by ${WORKTREE_INCLUDE_FILE}: ${(err as Error).message}`,
    };
  }
}

function isInside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel !== '' && rel !== '..' && !rel.startsWith('..' + sep) && !isAbsolute(rel);
}
