import { existsSync, lstatSync, realpathSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { AgentNameSchema, IdSchema } from '../store/types.js';
import { syncAgentWorktree } from './agent-sync.js';
import { diskSize } from './disk-size.js';
import { excludeWorktreesFolder } from './exclude.js';
import { ensureIntegrationBranch } from './integration.js';
import { git, resolveCommit, runGit } from './run-git.js';
import { runSetupCommand } from './run-shell.js';
import { clearStaleLocks } from './stale-locks.js';
import {
  AGENT_WORKTREE_PREFIX,
  DEFAULT_INTEGRATION_BRANCH,
  MERGE_WORKTREE_NAME,
  WORKTREES_DIR,
  type AgentWorktree,
  type Outcome,
  type RepoOptions,
  type TaskWorktree,
  type WorktreeKind,
  type WorktreeRecord,
} from './types.js';
import { copyIncludedFiles } from './worktree-include.js';
import { registeredWorktreeGitDir } from './worktree-pointer.js';
import { registeredWorktrees, type RegisteredWorktree } from './worktree-list.js';

export interface WorktreesOptions extends RepoOptions {
  /** Run with `sh -c` in each new worktree (e.g. `npm ci`); a failure undoes the worktree. */
  setup?: string;
  setupTimeoutMs?: number;
}

export interface CreateTaskWorktree {
  taskId: string;
  /** The teammate it is for (named in errors). */
  agent: string;
  /** Commit-ish to start a new branch from; default the integration branch's tip. */
  base?: string;
}

/**
 * The worktrees teamd makes under `.worktrees/`: one per task on branch
 * `teamd/<task-id>`, or one per teammate on `teamd/@<agent>`. Creating one
 * never touches the main checkout (only refs, `.git/worktrees/` and
 * `.git/info/exclude` change), and a creation that fails leaves nothing behind.
 */
export class Worktrees {
  readonly repoRoot: string;
  readonly integrationBranch: string;
  readonly root: string;

  constructor(private readonly options: WorktreesOptions) {
    this.repoRoot = realpathSync(options.repoRoot);
    this.integrationBranch = options.integrationBranch ?? DEFAULT_INTEGRATION_BRANCH;
    this.root = join(this.repoRoot, WORKTREES_DIR);
  }

  pathOf(taskId: string): string {
    return join(this.root, taskId);
  }

  branchOf(taskId: string): string {
    return `teamd/${taskId}`;
  }

  /** Makes (or adopts, after a restart) the worktree of a task. */
  async create(request: CreateTaskWorktree): Promise<Outcome<TaskWorktree>> {
    const id = IdSchema.safeParse(request.taskId);
    if (!id.success)
      return { ok: false, error: `task id '${request.taskId}': ${id.error.issues[0]?.message}` };
    if (this.branchOf(id.data) === this.integrationBranch) {
      return {
        ok: false,
        error: `task id '${id.data}' would work on the integration branch itself; rename the task`,
      };
    }
    const made = await this.makeOrAdopt(this.pathOf(id.data), this.branchOf(id.data), request.base);
    if (made.ok) return made;
    return { ok: false, error: `worktree for task ${id.data} (${request.agent}): ${made.error}` };
  }

  /** Makes or reuses a teammate's long-lived worktree and, when clean, brings it to the integration tip. */
  async createForAgent(agent: string): Promise<Outcome<AgentWorktree>> {
    const name = AgentNameSchema.safeParse(agent);
    if (!name.success) return { ok: false, error: `agent name '${agent}': ${name.error.issues[0]?.message}` };
    const dirName = `${AGENT_WORKTREE_PREFIX}${name.data}`;
    const made = await this.makeOrAdopt(join(this.root, dirName), `teamd/${dirName}`);
    if (!made.ok) return { ok: false, error: `worktree for ${name.data}: ${made.error}` };
    const { path, branch, reusedBranch } = made.value;
    if (!reusedBranch) return { ok: true, value: { path, branch, synced: true, note: null } };
    return { ok: true, value: { path, branch, ...(await syncAgentWorktree(path, this.integrationBranch)) } };
  }

  /** Every worktree under `.worktrees/`, with its state and size. */
  async list(): Promise<Outcome<WorktreeRecord[]>> {
    const listed = await registeredWorktrees(this.repoRoot);
    if (!listed.ok) return listed;
    const ours = listed.value.filter((w) => dirname(w.path) === this.root);
    return { ok: true, value: await Promise.all(ours.map((w) => this.describe(w))) };
  }

  /** Removes a task's worktree (uncommitted changes included) and prunes; the branch is kept. */
  async remove(taskId: string): Promise<Outcome<void>> {
    if (!IdSchema.safeParse(taskId).success) return { ok: false, error: `invalid task id '${taskId}'` };
    return this.removeAt(this.pathOf(taskId));
  }

  async removeForAgent(agent: string): Promise<Outcome<void>> {
    if (!AgentNameSchema.safeParse(agent).success)
      return { ok: false, error: `invalid agent name '${agent}'` };
    return this.removeAt(join(this.root, `${AGENT_WORKTREE_PREFIX}${agent}`));
  }

  /** Removes git's stale locks (a killed git's `index.lock`, `locked`) of every worktree under `.worktrees/`. */
  clearStaleLocks(): Promise<string[]> {
    return clearStaleLocks(this.repoRoot);
  }

  /** Task worktrees whose task id is not among `knownTaskIds` (their task file is gone). */
  async findOrphans(knownTaskIds: Iterable<string>): Promise<Outcome<WorktreeRecord[]>> {
    const known = new Set(knownTaskIds);
    const listed = await this.list();
    if (!listed.ok) return listed;
    return { ok: true, value: listed.value.filter((w) => w.kind === 'task' && !known.has(w.taskId ?? '')) };
  }

  private async makeOrAdopt(path: string, branch: string, base?: string): Promise<Outcome<TaskWorktree>> {
    // Before the prune: a `locked` left by a killed `worktree add` would keep a gone folder registered.
    await clearStaleLocks(this.repoRoot, path);
    const prepared = await this.prepareRoot();
    if (!prepared.ok) return prepared;
    const existing = await this.registered(path);
    if (!existing.ok) return existing;
    if (existing.value?.branchRef === `refs/heads/${branch}`) {
      if (!checkoutFinished(path, this.repoRoot)) return this.finishMaking(path, branch);
      return { ok: true, value: { path, branch, reusedBranch: true, reusedWorktree: true, copiedFiles: [] } };
    }
    if (existing.value || pathTaken(path)) {
      return { ok: false, error: `${path} already exists and is not the worktree of branch ${branch}` };
    }
    const start = await this.resolveBase(base);
    if (!start.ok) return start;
    return this.make(path, branch, start.value);
  }

  private async make(path: string, branch: string, base: string): Promise<Outcome<TaskWorktree>> {
    const reusedBranch = (await resolveCommit(this.repoRoot, `refs/heads/${branch}`)) !== null;
    const args = reusedBranch
      ? ['worktree', 'add', path, branch]
      : ['worktree', 'add', '-b', branch, path, base];
    const added = await git(this.repoRoot, args);
    if (!added.ok) return this.undo(path, reusedBranch ? null : branch, added.error);
    const copied = await copyIncludedFiles(this.repoRoot, path);
    if (!copied.ok) return this.undo(path, reusedBranch ? null : branch, copied.error);
    const setup = await runSetupCommand(this.options.setup, path, this.options.setupTimeoutMs);
    if (!setup.ok) return this.undo(path, reusedBranch ? null : branch, setup.error);
    return {
      ok: true,
      value: { path, branch, reusedBranch, reusedWorktree: false, copiedFiles: copied.value },
    };
  }

  /**
   * A worktree whose `git worktree add` was killed with its process group
   * before its checkout wrote the index: registered, on its branch, with few
   * or none of its files. Adopted as it is, every missing file would be
   * committed as deleted by the task's commit and merged (another task's work
   * gone from the integration branch). No one worked in it (a worktree is
   * handed out only once made), so what the killed git was doing is done
   * again: the checkout of its branch (`reset --hard`, untracked files kept),
   * then the copy and the setup command. The branch is kept either way.
   */
  private async finishMaking(path: string, branch: string): Promise<Outcome<TaskWorktree>> {
    const reset = await git(path, ['reset', '-q', '--hard', 'HEAD']);
    if (!reset.ok) return this.undo(path, null, `finishing the checkout a killed git left: ${reset.error}`);
    const copied = await copyIncludedFiles(this.repoRoot, path);
    if (!copied.ok) return this.undo(path, null, copied.error);
    const setup = await runSetupCommand(this.options.setup, path, this.options.setupTimeoutMs);
    if (!setup.ok) return this.undo(path, null, setup.error);
    return { ok: true, value: { path, branch, reusedBranch: true, reusedWorktree: false, copiedFiles: copied.value } };
  }

  /** Takes back a half-made worktree: its folder, its registration, and the branch if this call made it. */
  private async undo(path: string, createdBranch: string | null, error: string): Promise<Outcome<never>> {
    const removed = await runGit(this.repoRoot, ['worktree', 'remove', '--force', path]);
    if (removed.exitCode !== 0) await rm(path, { recursive: true, force: true });
    await runGit(this.repoRoot, ['worktree', 'prune']);
    if (createdBranch) await runGit(this.repoRoot, ['update-ref', '-d', `refs/heads/${createdBranch}`]);
    return { ok: false, error };
  }

  private async resolveBase(base: string | undefined): Promise<Outcome<string>> {
    if (base !== undefined) {
      const commit = await resolveCommit(this.repoRoot, base);
      return commit
        ? { ok: true, value: commit }
        : { ok: false, error: `invalid base '${base}': it names no commit` };
    }
    const integration = await ensureIntegrationBranch(this.repoRoot, this.integrationBranch);
    return integration.ok ? { ok: true, value: integration.value.tip } : integration;
  }

  private async prepareRoot(): Promise<Outcome<void>> {
    const excluded = await excludeWorktreesFolder(this.repoRoot);
    if (!excluded.ok) return excluded;
    const pruned = await git(this.repoRoot, ['worktree', 'prune']);
    return pruned.ok ? { ok: true, value: undefined } : pruned;
  }

  private async registered(path: string): Promise<Outcome<RegisteredWorktree | null>> {
    const listed = await registeredWorktrees(this.repoRoot);
    if (!listed.ok) return listed;
    return { ok: true, value: listed.value.find((w) => w.path === path) ?? null };
  }

  private async removeAt(path: string): Promise<Outcome<void>> {
    const existing = await this.registered(path);
    if (!existing.ok) return existing;
    if (existing.value) {
      const removed = await git(this.repoRoot, ['worktree', 'remove', '--force', path]);
      if (!removed.ok) return removed;
    } else if (existsSync(path)) {
      return { ok: false, error: `${path} is not a git worktree; left as is` };
    }
    const pruned = await git(this.repoRoot, ['worktree', 'prune']);
    return pruned.ok ? { ok: true, value: undefined } : pruned;
  }

  private async describe(w: RegisteredWorktree): Promise<WorktreeRecord> {
    const name = basename(w.path);
    const kind = kindOf(name);
    const status = w.prunable ? null : await runGit(w.path, ['status', '--porcelain']);
    return {
      kind,
      taskId: kind === 'task' ? name : null,
      agent: kind === 'agent' ? name.slice(AGENT_WORKTREE_PREFIX.length) : null,
      path: w.path,
      branch: w.branchRef?.replace(/^refs\/heads\//, '') ?? null,
      head: w.head,
      // A status git refuses (a redirected .git) counts as dirty: kept unless forced.
      dirty: status !== null && (status.exitCode !== 0 || status.stdout.trim() !== ''),
      sizeBytes: await diskSize(w.path),
      prunable: w.prunable,
    };
  }
}

function kindOf(name: string): WorktreeKind {
  if (name === MERGE_WORKTREE_NAME) return 'merge';
  return name.startsWith(AGENT_WORKTREE_PREFIX) ? 'agent' : 'task';
}

/** git writes a worktree's index once its checkout is done: without one, `worktree add` never finished. */
function checkoutFinished(path: string, repoRoot: string): boolean {
  const pinned = registeredWorktreeGitDir(path, repoRoot);
  if (pinned === null || !pinned.ok) return true; // not ours to repair: the commit step refuses a broken pointer
  return existsSync(join(pinned.value.gitDir, 'index'));
}

/** Like existsSync, but a dangling symlink counts as taken. */
function pathTaken(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}
