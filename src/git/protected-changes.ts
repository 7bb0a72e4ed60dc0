/**
 * What in `base...branch` needs a person before it merges: paths whose names
 * are protected (protected-paths.ts), files the protected config runs
 * (hook-scripts.ts), and links, submodules and git files that reach
 * protected content without its name in the diff (protected-links.ts).
 */
import { configuredPaths, configuredReason } from './hook-scripts.js';
import { protectedGitChanges } from './protected-links.js';
import { protectedReason } from './protected-paths.js';
import { git } from './run-git.js';
import { SAFE_DIFF_FLAGS } from './safe-git.js';
import type { Outcome } from './types.js';

/** The repository's own `core.hooksPath` (its .git/config: teamd's git calls override the setting) when relative, else undefined. */
async function hooksPathOf(repoRoot: string): Promise<string | undefined> {
  const read = await git(repoRoot, ['config', '--local', '--get', 'core.hooksPath']);
  const value = read.ok ? read.value.trim() : '';
  return value === '' || value.startsWith('/') || value.startsWith('~') ? undefined : value;
}

/**
 * Every path `base...branch` adds, changes, deletes or renames (both names
 * of a rename) that needs a person, with why: `path: reason` lines. A path
 * found both by name and as a link is listed once, by name.
 */
export async function protectedChanges(repoRoot: string, base: string, branch: string): Promise<Outcome<string[]>> {
  const listed = await git(repoRoot, ['diff', ...SAFE_DIFF_FLAGS, '--name-only', '--no-renames', '-z', `${base}...${branch}`]);
  if (!listed.ok) return listed;
  const hooksPath = await hooksPathOf(repoRoot);
  const configured = await configuredPaths(repoRoot, base);
  const named = listed.value
    .split('\0')
    .filter((p) => p !== '')
    .flatMap((p) => {
      const why = protectedReason(p, hooksPath) ?? configuredReason(p, configured);
      return why === undefined ? [] : [`${p}: ${why}`];
    });
  const other = await protectedGitChanges(repoRoot, base, branch, hooksPath, configured);
  if (!other.ok) return other;
  const seen = new Set(named.map((line) => line.slice(0, line.indexOf(': '))));
  return { ok: true, value: [...named, ...other.value.filter((line) => !seen.has(line.slice(0, line.indexOf(': '))))] };
}
