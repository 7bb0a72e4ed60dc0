import type { TeamConfig } from '../../config/schema.js';
import { checkBranchName } from '../../git/integration.js';
import { resolveCommit, runGit } from '../../git/run-git.js';
import { failed, ok, type Check } from './types.js';

/**
 * Worktrees need a git repository with a commit to start the integration
 * branch from, and a valid branch name for it. With `worktrees.mode: off`
 * the team works in place and git is not needed.
 */
export async function checkGit(repoRoot: string, config: TeamConfig): Promise<Check> {
  const name = 'git repository';
  if (config.worktrees.mode === 'off') return ok(name, 'not needed (worktrees.mode is off)');
  const top = await runGit(repoRoot, ['rev-parse', '--show-toplevel']);
  if (top.exitCode !== 0)
    return failed(
      name,
      `${repoRoot} is not a git repository`,
      'run `git init` and commit something, or set worktrees.mode to "off" in .team/config.json',
    );
  const branch = config.worktrees.integrationBranch;
  if (!(await resolveCommit(repoRoot, 'HEAD')))
    return failed(
      name,
      `${repoRoot}: the repository has no commits yet`,
      `commit something (git add -A && git commit -m start) so the integration branch '${branch}' can start from it`,
    );
  const valid = await checkBranchName(repoRoot, branch);
  if (!valid.ok)
    return failed(
      name,
      valid.error,
      'set worktrees.integrationBranch in .team/config.json to a valid branch name',
    );
  return ok(name, `${top.stdout}; integration branch ${branch}`);
}
