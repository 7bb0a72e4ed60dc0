/**
 * The lead's side of isolation: it makes each task's worktree (one git
 * operation at a time), and merges finished task branches through the merge
 * queue. A task stays `in_progress` with `metadata.merge.state = 'queued'`
 * until its branch is merged, so tasks that depend on it start only from an
 * integration branch that already holds its work. A refused merge (conflict,
 * failing verify) sends the task back to its owner: `pending`, assigned to
 * that teammate, with the refusal as a note; its branch and worktree are kept.
 */
import type { TeamConfig } from '../config/schema.js';
import { cleanWorktrees } from '../git/hygiene.js';
import { ensureIntegrationBranch } from '../git/integration.js';
import { MergeQueue } from '../git/merge-queue.js';
import { git, runGit } from '../git/run-git.js';
import type { MergeEvent } from '../git/types.js';
import { Worktrees } from '../git/worktrees.js';
import type { TeamEvent } from '../observe/types.js';
import type { MailboxStore } from '../store/mailbox/index.js';
import type { TaskStore } from '../store/tasks/index.js';
import type { Task } from '../store/types.js';
import type { MergeHandoff } from '../teammate/task-finish.js';
import { awaitingMerge } from './reconcile.js';

export interface LeadMergesDeps {
  repoRoot: string;
  config: TeamConfig;
  tasks: TaskStore;
  mailbox: MailboxStore;
  log: (e: TeamEvent, at?: Date) => void;
}

export interface Grant {
  ok: boolean;
  path?: string;
  branch?: string;
  error?: string;
}

export class LeadMerges {
  private worktrees: Worktrees | null = null;
  private queue: MergeQueue | null = null;
  private gitChain: Promise<unknown> = Promise.resolve();
  private draining: Promise<void> | null = null;
  private again = false;

  constructor(private readonly deps: LeadMergesDeps) {}

  get enabled(): boolean {
    return this.deps.config.worktrees.mode !== 'off';
  }

  async start(): Promise<void> {
    if (!this.enabled) return;
    const wt = this.deps.config.worktrees;
    const integration = await ensureIntegrationBranch(this.deps.repoRoot, wt.integrationBranch);
    if (!integration.ok) throw new Error(`worktrees: ${integration.error}`);
    this.worktrees = new Worktrees({ repoRoot: this.deps.repoRoot, integrationBranch: wt.integrationBranch, setup: wt.setup });
    const unlocked = await this.worktrees.clearStaleLocks();
    if (unlocked.length) this.deps.log({ type: 'notice', message: `removed stale git locks a killed git left: ${unlocked.join(', ')}` });
    const queue = await MergeQueue.open({
      repoRoot: this.deps.repoRoot,
      integrationBranch: wt.integrationBranch,
      verify: wt.verify,
      verifyTimeoutMs: wt.verifyTimeoutMs,
      setup: wt.setup,
      onEvent: (e) => this.onQueueEvent(e),
    });
    if (!queue.ok) throw new Error(queue.error);
    this.queue = queue.value;
    await this.queue.recover();
    await this.removeMergedWorktrees();
    await this.reportOrphans();
    for (const t of this.deps.tasks.list({ status: 'in_progress' })) this.noticeTask(t);
    this.kick();
  }

  /** A task file changed: a finished task not yet in the queue is enqueued. */
  noticeTask(task: Task): void {
    if (!this.queue || !awaitingMerge(task)) return;
    const entry = this.queue.entries().find((e) => e.taskId === task.id);
    if (entry && (entry.state === 'queued' || entry.state === 'merging')) return;
    const handoff = task.metadata.merge as MergeHandoff;
    void this.queue.enqueue({ taskId: task.id, branch: handoff.branch, agent: handoff.agent, subject: task.subject }).then((r) => {
      if (r.ok) this.deps.log({ type: 'merge_queued', task: task.id, branch: handoff.branch });
      this.kick();
    });
  }

  /** The worktree a teammate works in for a task. Serialised: git does not like parallel worktree surgery. */
  grantWorktree(taskId: string, agent: string): Promise<Grant> {
    const next = this.gitChain.then(() => this.makeWorktree(taskId, agent));
    this.gitChain = next.catch(() => undefined);
    return next;
  }

  async stop(): Promise<void> {
    await this.queue?.close();
    await this.draining;
  }

  private async makeWorktree(taskId: string, agent: string): Promise<Grant> {
    if (!this.worktrees) return { ok: false, error: 'worktrees are not set up' };
    const mode = this.deps.config.worktrees.mode;
    const made = mode === 'per-teammate' ? await this.worktrees.createForAgent(agent) : await this.worktrees.create({ taskId, agent });
    if (!made.ok) {
      this.deps.log({ type: 'worktree_failed', task: taskId, error: made.error });
      return { ok: false, error: made.error };
    }
    const { path, branch } = made.value;
    if ('reusedBranch' in made.value && made.value.reusedBranch) await this.catchUp(path, taskId);
    this.deps.log({ type: 'worktree_created', task: taskId, path, branch });
    return { ok: true, path, branch };
  }

  /**
   * A branch sent back after a refused merge: bring the integration branch in,
   * so the teammate sees (and resolves) the conflict in its own worktree.
   */
  private async catchUp(path: string, taskId: string): Promise<void> {
    const integration = this.deps.config.worktrees.integrationBranch;
    const merged = await runGit(path, ['merge', '--no-edit', integration], { env: { GIT_AUTHOR_NAME: 'teamd', GIT_AUTHOR_EMAIL: 'teamd@teamd.local', GIT_COMMITTER_NAME: 'teamd', GIT_COMMITTER_EMAIL: 'teamd@teamd.local' } });
    if (merged.exitCode !== 0) {
      const files = await git(path, ['diff', '--name-only', '--diff-filter=U']);
      const list = files.ok ? files.value.trim().split('\n').filter(Boolean) : [];
      await this.deps.tasks.addNote(taskId, 'lead', `Merged ${integration} into your branch; resolve the conflict markers in: ${list.join(', ') || '(see git status)'}, then finish.`);
    }
  }

  private kick(): void {
    if (!this.queue) return;
    if (this.draining) {
      this.again = true;
      return;
    }
    this.draining = (async () => {
      do {
        this.again = false;
        await this.queue!.drain();
      } while (this.again);
    })().finally(() => (this.draining = null));
  }

  private onQueueEvent(e: MergeEvent): void {
    if (e.type === 'merged') void this.merged(e.taskId, e.agent, e.mergeCommit);
    else if (e.type === 'merge_refused') void this.refused(e.taskId, e.agent, e.reason, e.message);
    else if (e.type === 'merge_blocked') this.deps.log({ type: 'notice', message: `merge queue blocked: ${JSON.stringify(e)}` });
  }

  private async merged(taskId: string, agent: string, mergeCommit: string): Promise<void> {
    const task = this.deps.tasks.get(taskId);
    const handoff = task?.metadata.merge as MergeHandoff | undefined;
    const result = { summary: handoff?.summary ?? 'merged', filesTouched: handoff?.filesTouched, branch: handoff?.branch, commit: handoff?.commit ?? undefined, mergeCommit };
    // Dependants may be claimed the moment the file says completed: the event
    // carries the time of the change, not the time it was logged.
    const at = new Date();
    const done = await this.deps.tasks.update(taskId, (t) =>
      t.status === 'in_progress' ? { ...t, status: 'completed', lease: null, result, metadata: { ...t.metadata, merge: { ...handoff, state: 'merged', mergeCommit } } } : { ok: false, error: `task is ${t.status}` },
    );
    this.deps.log({ type: 'merge_merged', task: taskId, commit: mergeCommit });
    if (!done.ok) return this.deps.log({ type: 'notice', message: `merged ${taskId} but could not complete it: ${done.error}` });
    this.deps.log({ type: 'task_completed', task: taskId, agent, summary: result.summary }, at);
    if (this.deps.config.worktrees.mode === 'per-task') await this.worktrees?.remove(taskId);
  }

  private async refused(taskId: string, agent: string, reason: string, message: string): Promise<void> {
    this.deps.log({ type: 'merge_refused', task: taskId, reason, detail: message.slice(0, 2000) });
    const back = await this.deps.tasks.update(taskId, (t) => ({
      ...t,
      status: 'pending',
      owner: agent,
      lease: null,
      metadata: { ...t.metadata, merge: { ...(t.metadata.merge as object), state: 'refused', reason } },
      notes: [...t.notes, { ts: new Date().toISOString(), by: 'lead', text: `Merge refused (${reason}): ${message}` }],
    }));
    if (!back.ok) return;
    await this.deps.mailbox.send({ from: 'lead', to: agent, type: 'message', content: `Your task ${taskId} was not merged (${reason}). It is back on the board for you:\n${message}`, metadata: { task_id: taskId } });
  }

  /** A lead killed between completing a merged task and removing its worktree leaves it behind: tidy up at start. */
  private async removeMergedWorktrees(): Promise<void> {
    if (this.deps.config.worktrees.mode !== 'per-task') return;
    const merged = (id: string) => this.deps.tasks.get(id)?.status === 'completed';
    // Forced like the removal after a merge: what a merged task's worktree still holds (a redone
    // attempt's unfinished edit) is not its work, which is in the integration branch.
    const cleaned = await cleanWorktrees(this.worktrees!, { isFinished: async (id) => merged(id), force: true });
    if (cleaned.ok && cleaned.value.removed.length) {
      this.deps.log({ type: 'notice', message: `removed the worktrees of merged tasks: ${cleaned.value.removed.join(', ')}` });
    }
  }

  private async reportOrphans(): Promise<void> {
    const orphans = await this.worktrees!.findOrphans(this.deps.tasks.list().map((t) => t.id));
    if (!orphans.ok) return;
    for (const o of orphans.value) this.deps.log({ type: 'notice', message: `orphan worktree ${o.path} (${o.branch ?? 'detached'}); remove it with teamd worktrees clean` });
  }
}
