/**
 * The driver check (config-list.ts) for a place runGit does not pin: the main
 * checkout, where the commit step and the merge worktree ask first.
 */
import { CONFIG_LIST_ARGS, verdictOf } from './config-list.js';
import { runGit } from './run-git.js';
import type { Outcome } from './types.js';

/** Refuses, naming key and file, when the repository's config at `cwd` defines a driver command. */
export async function checkRepositoryDrivers(cwd: string): Promise<Outcome<void>> {
  return verdictOf(await runGit(cwd, CONFIG_LIST_ARGS, { raw: true }));
}
