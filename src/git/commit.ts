import { checkRepositoryDrivers } from './repo-drivers.js';
import { git, identityEnv, runGit } from './run-git.js';
import { SAFE_DIFF_FLAGS } from './safe-git.js';
import { clearStaleLocks } from './stale-locks.js';
import { TEAM_FOLDERS, TEAMD_IDENTITY, type Outcome } from './types.js';
import { teamdWorktreeRepo, verifiedWorktreeGitDir } from './worktree-pointer.js';

export interface CommitRequest {
  message: string;
  authorName: string;
  /** Usually `teammateEmail(authorName)`. */
  authorEmail: string;
}

/** The address a teammate's commits carry: `<name>@teamd.local`. */
export const teammateEmail = (name: string): string => `${name}@teamd.local`;

/** Pathspecs that keep the team's folders (at any depth) out of a commit. */
const TEAM_EXCLUDES = TEAM_FOLDERS.flatMap((f) => [`:(exclude,glob)**/${f}/**`, `:(exclude,glob)**/${f}`]);

/**
 * Commits everything a teammate left in its worktree, authored by the
 * teammate and committed by teamd. Files in the team's folders are never
 * committed, even if the teammate staged them itself. `commit` is null when
 * there was nothing to commit; leftover conflict markers are an error and
 * nothing is committed. The repository's hooks do not run (safe-git.ts)
 * unless teamd was started trusting them; then a hook that refuses is an
 * error the daemon can hand back to the teammate. A worktree whose `.git`
 * was redirected, or a repository config naming a filter or merge command,
 * is an error and nothing is committed.
 */
export async function commitWorktree(
  path: string,
  request: CommitRequest,
): Promise<Outcome<{ commit: string | null }>> {
  const trusted = await checkCommitSafety(path);
  if (!trusted.ok) return trusted;
  const added = await git(path, ['add', '-A', '--', '.', ...TEAM_EXCLUDES]);
  if (!added.ok) return added;
  const unstaged = await unstageTeamFiles(path);
  if (!unstaged.ok) return unstaged;
  const staged = await runGit(path, ['diff', ...SAFE_DIFF_FLAGS, '--cached', '--quiet']);
  if (staged.exitCode === 0) return { ok: true, value: { commit: null } };
  const markers = await filesWithConflictMarkers(path);
  if (markers.length > 0) {
    // Left staged: a reset would also drop a merge in progress (MERGE_HEAD) and its second parent.
    return {
      ok: false,
      error: `conflict markers are left in ${markers.join(', ')}; resolve them, then finish again`,
    };
  }
  const author = { name: request.authorName, email: request.authorEmail };
  const env = identityEnv(author, TEAMD_IDENTITY);
  const committed = await git(path, ['commit', '-q', '-m', request.message], { env });
  if (!committed.ok) return committed;
  const head = await git(path, ['rev-parse', 'HEAD']);
  return head.ok ? { ok: true, value: { commit: head.value.trim() } } : head;
}

/**
 * The worktree's `.git` still leads to the git dir teamd made, and no
 * repository driver would run. A lock a killed git left (the teammate's bash
 * command stopped mid-commit) is cleared when no git works there any more.
 */
async function checkCommitSafety(path: string): Promise<Outcome<void>> {
  const repoRoot = teamdWorktreeRepo(path);
  if (repoRoot !== null) {
    const gitDir = verifiedWorktreeGitDir(path, repoRoot);
    if (!gitDir.ok) return gitDir;
    await clearStaleLocks(repoRoot, path);
  }
  return checkRepositoryDrivers(path);
}

/** Takes back out of the index anything under a team folder that was staged earlier. */
async function unstageTeamFiles(path: string): Promise<Outcome<void>> {
  const staged = await git(path, ['diff', ...SAFE_DIFF_FLAGS, '--cached', '--name-only', '-z'], {
    raw: true,
  });
  if (!staged.ok) return staged;
  const teamFiles = staged.value.split('\0').filter((f) => f !== '' && isTeamPath(f));
  if (teamFiles.length === 0) return { ok: true, value: undefined };
  // Back to HEAD's version in the index: a new file leaves the index, a tracked one is not deleted.
  const restored = await git(path, ['--literal-pathspecs', 'reset', '-q', 'HEAD', '--', ...teamFiles]);
  return restored.ok ? { ok: true, value: undefined } : restored;
}

/**
 * A teammate resolving a conflict may leave `<<<<<<<` lines behind, and
 * `git add -A` would happily mark the file resolved: refuse to commit them.
 */
async function filesWithConflictMarkers(path: string): Promise<string[]> {
  const checked = await runGit(path, ['diff', ...SAFE_DIFF_FLAGS, '--cached', '--check']);
  const files = new Set<string>();
  for (const line of checked.stdout.split('\n')) {
    const found = /^(.+):\d+: leftover conflict marker$/.exec(line);
    if (found?.[1]) files.add(found[1]);
  }
  return [...files];
}

function isTeamPath(file: string): boolean {
  return file.split('/').some((segment) => (TEAM_FOLDERS as readonly string[]).includes(segment));
}
