import { lstatSync } from 'node:fs';
import { join, relative } from 'node:path';
import { teamPaths } from './paths.js';
import { describeLink } from './team-file.js';
import type { FileProblem } from './types.js';

/**
 * The folders teamd reads and writes: each must be a real folder inside the
 * repository (or not exist yet). A committed symbolic link (`.tasks → /etc`)
 * would otherwise lead every read and write out of the repository.
 */
export function teamFolders(repoRoot: string): string[] {
  const p = teamPaths(repoRoot);
  return [p.tasks, p.mailboxes, p.archive, p.cron, p.team, p.state, p.worktrees];
}

/** The team folders that are links or not folders at all; a missing folder is fine (it is made when needed). */
export function teamFolderProblems(repoRoot: string): FileProblem[] {
  const root = teamPaths(repoRoot).root;
  return teamFolders(repoRoot).flatMap((folder) => {
    const label = relative(root, folder);
    const problem = folderProblem(folder, label);
    return problem ? [{ file: label, message: problem }] : [];
  });
}

function folderProblem(folder: string, label: string): string | undefined {
  let s;
  try {
    s = lstatSync(folder);
  } catch {
    return undefined;
  }
  if (s.isSymbolicLink())
    return describeLink(folder, label, 'team folders must be real folders inside the repository');
  return s.isDirectory() ? undefined : 'is not a folder; team folders must be real folders inside the repository';
}

/** One line naming every bad team folder, for refusing to start; undefined when all are fine. */
export function teamFolderRefusal(repoRoot: string): string | undefined {
  const problems = teamFolderProblems(repoRoot);
  if (!problems.length) return undefined;
  const root = teamPaths(repoRoot).root;
  return problems.map((p) => `${join(root, p.file)}: ${p.message}`).join('; ');
}
