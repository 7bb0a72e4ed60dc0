/**
 * A worktree's `.git` is a file inside the worktree, so whoever writes in the
 * worktree can point it at a git dir of their own (`gitdir: evilgit`), whose
 * config then runs commands (`core.fsmonitor`) and receives the commits.
 * teamd's git therefore never follows that file in its worktrees: it checks
 * that the file still names the git dir `git worktree add` made
 * (`<common dir>/worktrees/<name>`, registered back to this folder, whose
 * `commondir` leads to the repository's), and then passes that dir to git
 * explicitly (`--git-dir`, `--work-tree`), so a file changed after the check
 * is not followed either.
 */
import { lstatSync, readdirSync, realpathSync } from 'node:fs';
import { readTeamFileSync } from '../store/team-file.js';
import { basename, dirname, join, resolve } from 'node:path';
import { WORKTREES_DIR, type Outcome } from './types.js';

/** A `gitdir: <path>` line is far shorter; a bigger `.git` is not read. */
const MAX_POINTER_BYTES = 8192;

/** The repository a folder `<repo>/.worktrees/<name>` belongs to, or null for any other folder. */
export function teamdWorktreeRepo(dir: string): string | null {
  return basename(dirname(dir)) === WORKTREES_DIR ? dirname(dirname(dir)) : null;
}

/**
 * The git dir teamd made for the worktree at `worktree` (of the repository at
 * `repoRoot`), after checking that the worktree's `.git` file still points at
 * it; otherwise an error naming the file and what it says.
 */
export function verifiedWorktreeGitDir(worktree: string, repoRoot: string): Outcome<string> {
  const dotGit = join(worktree, '.git');
  try {
    const common = commonDirOf(repoRoot);
    const admin = registeredAdminDir(common, dotGit);
    if (admin === null)
      return broken(dotGit, `no git dir under ${join(common, 'worktrees')} is registered for it`);
    return checkPointer(dotGit, admin, common);
  } catch (err) {
    return broken(dotGit, (err as Error).message);
  }
}

/**
 * Like `verifiedWorktreeGitDir` for a folder git has registered as a worktree
 * of `repoRoot`; null for any other folder (one that only happens to live in a
 * folder named `.worktrees`), which git then finds as it always does.
 */
export function registeredWorktreeGitDir(
  worktree: string,
  repoRoot: string,
): Outcome<{ gitDir: string; common: string }> | null {
  const dotGit = join(worktree, '.git');
  let common: string;
  let admin: string | null;
  try {
    common = commonDirOf(repoRoot);
    admin = registeredAdminDir(common, dotGit);
  } catch {
    return null;
  }
  if (admin === null) return null;
  try {
    const checked = checkPointer(dotGit, admin, common);
    return checked.ok ? { ok: true, value: { gitDir: checked.value, common } } : checked;
  } catch (err) {
    return broken(dotGit, (err as Error).message);
  }
}

function checkPointer(dotGit: string, admin: string, common: string): Outcome<string> {
  const info = lstatSync(dotGit);
  if (!info.isFile())
    return broken(
      dotGit,
      `it is a ${info.isDirectory() ? 'folder' : 'symlink or special file'}, not the file git wrote`,
    );
  if (info.size > MAX_POINTER_BYTES) {
    return broken(dotGit, `it is ${info.size} bytes long, not the one line git wrote`);
  }
  const named = pointerTarget(dotGit);
  if (named === null || !samePath(named, admin)) {
    return broken(dotGit, `it says '${readSmall(dotGit).trim().slice(0, 200)}', not 'gitdir: ${admin}'`);
  }
  if (!samePath(resolveFrom(admin, readSmall(join(admin, 'commondir'))), common)) {
    return broken(dotGit, `${join(admin, 'commondir')} does not lead back to ${common}`);
  }
  return { ok: true, value: admin };
}

function broken(dotGit: string, why: string): Outcome<never> {
  return {
    ok: false,
    error:
      `${dotGit} no longer points at the git dir teamd created for this worktree (${why}); ` +
      `teamd will not run git through it. Restore it with 'git worktree repair ${dirname(dotGit)}' ` +
      `from the main checkout; nothing of this worktree was committed.`,
  };
}

/** The repository's common git dir (`<repo>/.git`, or where a `.git` file of the main checkout leads). */
export function commonDirOf(repoRoot: string): string {
  const dotGit = join(repoRoot, '.git');
  const gitDir = lstatSync(dotGit).isDirectory() ? dotGit : pointerTarget(dotGit);
  if (gitDir === null) throw new Error(`${dotGit} names no git dir`);
  let commondir: string | null = null;
  try {
    commondir = readSmall(join(gitDir, 'commondir'));
  } catch {
    // an ordinary repository: the git dir is the common dir
  }
  return realpathSync(commondir === null ? gitDir : resolveFrom(gitDir, commondir));
}

/**
 * The admin dir under `<common>/worktrees/` whose `gitdir` file names `dotGit`
 * (git's own record). Usually named after the folder, but git renames some
 * (`.merge` becomes `-merge`) and numbers a name already taken.
 */
function registeredAdminDir(common: string, dotGit: string): string | null {
  const base = join(common, 'worktrees');
  const wanted = basename(dirname(dotGit));
  const renamed = wanted.replace(/^\./, '-');
  const names = [wanted, renamed, ...readdirSync(base).filter((n) => n !== wanted && n !== renamed)];
  for (const name of names) {
    try {
      if (samePath(resolveFrom(join(base, name), readSmall(join(base, name, 'gitdir'))), dotGit))
        return join(base, name);
    } catch {
      // not this one
    }
  }
  return null;
}

/** The path a `gitdir: <path>` file names, resolved against the file's folder; null when it is not such a file. */
function pointerTarget(file: string): string | null {
  const text = readSmall(file);
  const found = /^gitdir: (.+?)\r?\n?$/.exec(text);
  return found?.[1] ? resolve(dirname(file), found[1]) : null;
}

function resolveFrom(dir: string, text: string): string {
  return resolve(dir, text.replace(/\r?\n$/, ''));
}

function samePath(a: string, b: string): boolean {
  if (resolve(a) === resolve(b)) return true;
  try {
    return realpathSync(a) === realpathSync(b);
  } catch {
    return false;
  }
}

/**
 * A small git pointer file (`.git`, `commondir`, `gitdir`), read only when it is a regular file of at most
 * 64 KiB: a teammate can put a FIFO (which would block the check) or a link to /dev/zero there. Throws the
 * refusal, as a failed read did.
 */
function readSmall(file: string): string {
  const read = readTeamFileSync(file, file, 64 * 1024);
  if (read.kind === 'text') return read.text;
  throw new Error(read.kind === 'missing' ? `${file} is missing` : `${file} ${read.problem.message}`);
}
