import { existsSync } from 'node:fs';
import { appendFile, mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { git } from './run-git.js';
import { WORKTREES_DIR, type Outcome } from './types.js';

/**
 * Hides `.worktrees/` from `git status` in the main checkout through the
 * repository's own `info/exclude`, so the user's `.gitignore` (a tracked file
 * in their tree) is never edited.
 */
export const excludeWorktreesFolder = (repoRoot: string): Promise<Outcome<void>> =>
  excludeInGit(repoRoot, `/${WORKTREES_DIR}/`, 'teamd worktrees');

/**
 * Hides the lock folders (`.tasks/.locks/`, …: owner files live there while
 * a process holds locks) from git in every checkout of the repository, so a
 * teammate's `git add -A` never commits them.
 */
export const excludeLockFolders = (repoRoot: string): Promise<Outcome<void>> =>
  excludeInGit(repoRoot, '.locks/', 'teamd lock folders');

async function excludeInGit(repoRoot: string, line: string, comment: string): Promise<Outcome<void>> {
  const common = await git(repoRoot, ['rev-parse', '--path-format=absolute', '--git-common-dir']);
  if (!common.ok) return common;
  const file = join(common.value.trim(), 'info', 'exclude');
  try {
    const current = existsSync(file) ? await readFile(file, 'utf8') : '';
    if (current.split('\n').some((l) => l.trim() === line)) return { ok: true, value: undefined };
    await mkdir(join(common.value.trim(), 'info'), { recursive: true });
    const separator = current === '' || current.endsWith('\n') ? '' : '\n';
    await appendFile(file, `${separator}# ${comment}\n${line}\n`);
    return { ok: true, value: undefined };
  } catch (err) {
    return { ok: false, error: `${file}: ${(err as Error).message}` };
  }
}
