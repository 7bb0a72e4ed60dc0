import { git, resolveCommit, runGit } from './run-git.js';
import { DEFAULT_INTEGRATION_BRANCH, type Outcome } from './types.js';
import { worktreeOnBranch } from './worktree-list.js';

export interface IntegrationBranch {
  branch: string;
  tip: string;
  /** True when this call created it. */
  created: boolean;
}

/**
 * Makes sure the integration branch exists, creating it at the commit checked
 * out in the main checkout. Only a ref is written (create-only `update-ref`,
 * so two racing callers cannot both create it): the main checkout's HEAD,
 * index and files are never touched.
 */
export async function ensureIntegrationBranch(
  repoRoot: string,
  name: string = DEFAULT_INTEGRATION_BRANCH,
): Promise<Outcome<IntegrationBranch>> {
  const valid = await checkBranchName(repoRoot, name);
  if (!valid.ok) return valid;
  const existing = await resolveCommit(repoRoot, `refs/heads/${name}`);
  if (existing) return { ok: true, value: { branch: name, tip: existing, created: false } };
  const head = await resolveCommit(repoRoot, 'HEAD');
  if (!head) {
    return {
      ok: false,
      error: `${repoRoot}: the repository has no commits yet; commit something so the integration branch '${name}' can start from it`,
    };
  }
  const created = await git(repoRoot, [
    'update-ref',
    '-m',
    'teamd: create integration branch',
    `refs/heads/${name}`,
    head,
    '',
  ]);
  if (created.ok) return { ok: true, value: { branch: name, tip: head, created: true } };
  const raced = await resolveCommit(repoRoot, `refs/heads/${name}`);
  return raced ? { ok: true, value: { branch: name, tip: raced, created: false } } : created;
}

/** Refuses a name git would not accept as a branch, naming it. */
export async function checkBranchName(repoRoot: string, name: string): Promise<Outcome<void>> {
  if (name === 'teamd') {
    return { ok: false, error: `'teamd' cannot be the integration branch: task branches live under teamd/` };
  }
  const run = await runGit(repoRoot, ['check-ref-format', `refs/heads/${name}`]);
  if (run.exitCode === 0 && !name.startsWith('-')) return { ok: true, value: undefined };
  return { ok: false, error: `'${name}' is not a valid git branch name` };
}

/**
 * The merge queue moves the integration branch with `update-ref`. Were the
 * branch checked out in a working tree (usually the main checkout, by a
 * person), that tree's files and index would silently disagree with its HEAD
 * afterwards; so the queue refuses to move it and says why.
 */
export async function checkIntegrationNotCheckedOut(repoRoot: string, name: string): Promise<Outcome<void>> {
  const found = await worktreeOnBranch(repoRoot, name);
  if (!found.ok) return found;
  if (found.value === null) return { ok: true, value: undefined };
  return {
    ok: false,
    error:
      `the integration branch '${name}' is checked out in ${found.value}; teamd moves it with ` +
      `'git update-ref', which would leave that working tree out of step with its branch. ` +
      `Check out another branch there (e.g. 'git switch main') and the merge queue will continue.`,
  };
}
