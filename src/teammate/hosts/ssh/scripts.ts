/**
 * The POSIX sh scripts the lead runs on the remote (argv.ts quotes them into
 * one `sh -c`). Only git and sh are needed there for code to travel; teamd
 * itself runs only the teammate. Every value is single-quoted on the way in.
 */
import { createHash } from 'node:crypto';
import { shellQuote as q } from './argv.js';

/** A folder name for a branch (`teamd/t-1` → `teamd_t-1-<hash>`): distinct branches never share one. */
export function branchSlug(branch: string): string {
  const hash = createHash('sha256').update(branch).digest('hex').slice(0, 8);
  return `${branch.replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 80)}-${hash}`;
}

const baseRef = (branch: string) => q(`refs/teamd/base/${branch}`);
const head = (branch: string) => q(`refs/heads/${branch}`);
const worktreeOf = (branch: string) => `"$root/worktrees/"${q(branchSlug(branch))}`;

/** Remove a leftover worktree of `branch` (a crashed attempt) so a fresh one can take its place. */
const dropWorktreeLines = (branch: string): string[] => [
  `wt=${worktreeOf(branch)}`,
  'if [ -e "$wt" ]; then git -C "$root/repo.git" worktree remove --force "$wt" 2>/dev/null || rm -rf "$wt"; fi',
  'git -C "$root/repo.git" worktree prune',
];

/**
 * stdin: a bundle of `branch` (perhaps without history the clone has), or
 * nothing when the clone holds its tip `tip` already. Fetched into the bare
 * clone as the task's base (`refs/teamd/base/<branch>`), then a worktree on
 * `branch` at that base; prints its path.
 */
export const receiveBaseScript = (root: string, branch: string, tip: string): string =>
  [
    'set -e',
    `root=${root}`,
    'mkdir -p "$root/worktrees" "$root/pids"',
    '[ -d "$root/repo.git" ] || git init -q --bare "$root/repo.git"',
    'tmp="$root/in-$$.bundle"',
    'trap \'rm -f "$tmp"\' EXIT',
    'cat > "$tmp"',
    `if [ -s "$tmp" ]; then git -C "$root/repo.git" fetch -q "$tmp" +${head(branch)}:${baseRef(branch)}`,
    `else git -C "$root/repo.git" update-ref ${baseRef(branch)} ${q(tip)}; fi`,
    ...dropWorktreeLines(branch),
    `git -C "$root/repo.git" worktree add -q -f -B ${q(branch)} "$wt" ${baseRef(branch)}`,
    'cd "$wt" && pwd -P',
  ].join('\n');

/** stdout: a bundle of the commits `branch` gained over its base, or nothing when it gained none. */
export const sendBranchScript = (root: string, branch: string): string =>
  [
    'set -e',
    `root=${root}`,
    `base=$(git -C "$root/repo.git" rev-parse --verify -q ${baseRef(branch)})`,
    `tip=$(git -C "$root/repo.git" rev-parse --verify -q ${head(branch)})`,
    '[ "$base" = "$tip" ] && exit 0',
    `git -C "$root/repo.git" bundle create - ${head(branch)} "^$base"`,
  ].join('\n');

/** The task's worktree, branch and base ref gone from the remote (after its branch came back, or at a give-up). */
export const dropBranchScript = (root: string, branch: string): string =>
  [
    `root=${root}`,
    '[ -d "$root/repo.git" ] || exit 0',
    ...dropWorktreeLines(branch),
    `git -C "$root/repo.git" branch -D ${q(branch)} >/dev/null 2>&1`,
    `git -C "$root/repo.git" update-ref -d ${baseRef(branch)} 2>/dev/null`,
    'exit 0',
  ].join('\n');

const pgidFile = (name: string) => `"$root/pids/"${q(`${name}.pgid`)}`;

/**
 * Ends the process groups in `$groups`: TERM, up to 5 s for them to go, then KILL.
 * A group is alive while one of its processes is not a zombie (`kill -0` would count
 * those, and where no init reaps them they stay).
 */
const endGroupsLines = [
  'alive() { ps -A -o pgid= -o stat= | awk -v g="$1" \'$1 == g && $2 !~ /^Z/ { found = 1 } END { exit !found }\'; }',
  'for g in $groups; do kill -TERM "-$g" 2>/dev/null; done',
  'n=0; while [ $n -lt 50 ]; do left=; for g in $groups; do alive "$g" && left=1; done',
  '  [ -z "$left" ] && break; n=$((n + 1)); sleep 0.1; done',
  'for g in $groups; do kill -KILL "-$g" 2>/dev/null; done',
];

/**
 * Starts the teammate: a teammate of the same name left by an earlier lead
 * (a restart after a crash) is ended first, then this session's process
 * group is recorded and the shell becomes `teamd teammate --stdio`.
 */
export const startTeammateScript = (root: string, name: string, command: string): string =>
  [
    `root=${root}`,
    'mkdir -p "$root/pids" && cd "$root" || exit 97',
    `f=${pgidFile(name)}`,
    'pg=$(ps -o pgid= -p $$ | tr -d " ")',
    'groups=; [ -f "$f" ] && groups=$(cat "$f"); [ "$groups" = "$pg" ] && groups=',
    'case $groups in *[!0-9]*) groups= ;; esac',
    ...endGroupsLines,
    'echo "$pg" > "$f"',
    `exec ${command}`,
  ].join('\n');

/** Ends the teammate's process group and the groups its commands started (`extra`), and forgets it. */
export const endTeammateScript = (root: string, name: string, extra: readonly number[]): string =>
  [
    `root=${root}`,
    `f=${pgidFile(name)}`,
    `groups=${q(extra.filter((g) => Number.isInteger(g) && g > 1).join(' '))}`,
    'old=; [ -f "$f" ] && old=$(cat "$f")',
    'case $old in *[!0-9]*) old= ;; esac',
    'groups="$groups $old"',
    ...endGroupsLines,
    'rm -f "$f"',
    'exit 0',
  ].join('\n');

/** Makes the team's folder on the remote and prints its absolute path (the remote teammate's `repoRoot`). */
export const rootPathScript = (root: string): string => [`root=${root}`, 'mkdir -p "$root" && cd "$root" && pwd -P'].join('\n');

/**
 * What the teammate left uncommitted in its worktree, as one commit on
 * `branch` so that it can travel (prints `wip` when it made one). The lead
 * undoes it on its side and commits the files itself, with its own checks
 * (commitWorktree): this commit never reaches the integration branch. No hook
 * of the remote runs, and the identity is teamd's.
 */
export const wipCommitScript = (root: string, branch: string): string =>
  [
    'set -e',
    `root=${root}`,
    `cd ${worktreeOf(branch)}`,
    'git add -A',
    'git diff --cached --quiet && exit 0',
    'export GIT_AUTHOR_NAME=teamd GIT_AUTHOR_EMAIL=teamd@teamd.local GIT_COMMITTER_NAME=teamd GIT_COMMITTER_EMAIL=teamd@teamd.local',
    "git -c core.hooksPath=/dev/null -c commit.gpgSign=false commit -q --no-verify -m 'teamd: files left in the remote worktree'",
    'echo wip',
  ].join('\n');
