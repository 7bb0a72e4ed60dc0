import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { excludeWorktreesFolder } from './exclude.js';
import { checkRepositoryDrivers } from './repo-drivers.js';
import { git, runGit } from './run-git.js';
import { runSetupCommand } from './run-shell.js';
import { MERGE_WORKTREE_NAME, WORKTREES_DIR, type Outcome } from './types.js';
import { copyIncludedFiles } from './worktree-include.js';
import { registeredWorktrees } from './worktree-list.js';

export interface MergeWorktreeOptions {
  setup?: string;
  setupTimeoutMs?: number;
}

/**
 * The merge queue's private worktree, `.worktrees/.merge`, always detached:
 * merges and verify commands run here, so the main checkout is never touched
 * and no branch is checked out (the integration branch moves only by
 * `update-ref`). Ignored files (dependencies installed by `setup`) survive
 * between merges; anything else is reset before each one.
 */
export class MergeWorktree {
  readonly path: string;

  constructor(
    private readonly repoRoot: string,
    private readonly options: MergeWorktreeOptions = {},
  ) {
    this.path = join(repoRoot, WORKTREES_DIR, MERGE_WORKTREE_NAME);
  }

  /**
   * A clean tree at `commit`. A tree that cannot be cleaned (a crash left locks) is made again.
   * Refused while the repository's config names a filter or merge command (repo-drivers.ts):
   * the merged branch's `.gitattributes` is a teammate's to choose.
   */
  async checkout(commit: string): Promise<Outcome<void>> {
    const drivers = await checkRepositoryDrivers(this.repoRoot);
    if (!drivers.ok) return drivers;
    const exists = await this.isRegistered();
    if (!exists.ok) return exists;
    if (exists.value && (await this.clean()).ok) {
      const moved = await git(this.path, ['checkout', '-q', '-f', '--detach', commit]);
      if (moved.ok) return { ok: true, value: undefined };
    }
    return this.recreate(commit);
  }

  /** Undoes a merge in progress and any change to tracked or new files. */
  async clean(): Promise<Outcome<void>> {
    await runGit(this.path, ['merge', '--abort']);
    const reset = await git(this.path, ['reset', '-q', '--hard']);
    if (!reset.ok) return reset;
    const cleaned = await git(this.path, ['clean', '-q', '-fd']);
    return cleaned.ok ? { ok: true, value: undefined } : cleaned;
  }

  /** Removes the tree and its registration, whatever state a crash left them in. */
  async discard(): Promise<void> {
    const removed = await runGit(this.repoRoot, ['worktree', 'remove', '--force', '--force', this.path]);
    if (removed.exitCode !== 0) await rm(this.path, { recursive: true, force: true });
    await runGit(this.repoRoot, ['worktree', 'prune']);
  }

  private async recreate(commit: string): Promise<Outcome<void>> {
    await this.discard();
    const excluded = await excludeWorktreesFolder(this.repoRoot);
    if (!excluded.ok) return excluded;
    const added = await git(this.repoRoot, ['worktree', 'add', '--detach', this.path, commit]);
    if (!added.ok) return added;
    const copied = await copyIncludedFiles(this.repoRoot, this.path);
    if (!copied.ok) return copied;
    const setup = await runSetupCommand(this.options.setup, this.path, this.options.setupTimeoutMs);
    if (!setup.ok) await this.discard();
    return setup;
  }

  private async isRegistered(): Promise<Outcome<boolean>> {
    const listed = await registeredWorktrees(this.repoRoot);
    if (!listed.ok) return listed;
    return { ok: true, value: listed.value.some((w) => w.path === this.path && !w.prunable) };
  }
}
