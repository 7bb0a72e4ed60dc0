import { git } from './run-git.js';
import { SAFE_DIFF_FLAGS } from './safe-git.js';
import type { Outcome } from './types.js';

/** More than this and the diff is cut (a reviewer reads the rest in the worktree). */
export const MAX_DIFF_CHARS = 60_000;

/**
 * What a task branch would bring into the integration branch: the stat and
 * the patch of `integration...branch` (changes since they diverged), cut to
 * `maxChars`.
 */
export async function reviewDiff(repoRoot: string, integrationBranch: string, branch: string, maxChars = MAX_DIFF_CHARS): Promise<Outcome<string>> {
  const range = `${integrationBranch}...${branch}`;
  const stat = await git(repoRoot, ['diff', ...SAFE_DIFF_FLAGS, '--stat', range]);
  if (!stat.ok) return stat;
  const patch = await git(repoRoot, ['diff', ...SAFE_DIFF_FLAGS, range]);
  if (!patch.ok) return patch;
  const text = `${stat.value.trimEnd()}\n\n${patch.value}`;
  if (text.length <= maxChars) return { ok: true, value: text };
  return { ok: true, value: `${text.slice(0, maxChars)}\n… (diff cut at ${maxChars} of ${text.length} characters)\n` };
}
