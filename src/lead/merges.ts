/**
 * The lead's side of isolation: it makes each task's worktree (one git
 * operation at a time), and merges finished task branches through the merge
 * queue. A task stays `in_progress` with `metadata.merge.state = 'queued'`
 * until its branch is merged, so tasks that depend on it start only from an
 * integration branch that already holds its work. A refused merge (conflict,
 * failing verify) sends the task back to its owner: `pending`, assigned to
 * that teammate, with the refusal as a note; its branch and worktree are kept.
 * Each refusal counts an attempt: after `maxAttempts` the task fails.
 * A cancelled task always wins: its entry leaves the queue (or its merge is
 * aborted before the integration branch moves) and its worktree is removed.
 */
import { RecentIds } from './recent-ids.js';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { TeamConfig } from '../config/schema.js';
import { cleanWorktrees } from '../git/hygiene.js';
import { ensureIntegrationBranch } from '../git/integration.js';
import { MergeQueue } from '../git/merge-queue.js';
import { git, runGit } from '../git/run-git.js';
import type { MergeEvent } from '../git/types.js';
import { Worktrees } from '../git/worktrees.js';
import { eventLogPath } from '../observe/event-log.js';
import { readLastEvents } from '../observe/event-reader.js';
import type { TeamEvent } from '../observe/types.js';
import type { MailboxStore } from '../store/mailbox/index.js';
import type { TaskStore } from '../store/tasks/index.js';
import type { Task } from '../store/types.js';
import type { MergeHandoff } from '../teammate/task-finish.js';
import { completedAs, completedByMerge, handoffOf, sendBack, taskRefGuard } from './merge-outcomes.js';
import { personNeeded } from './protected-review.js';
import { awaitingMerge } from './reconcile.js';
import { inReview } from './review-state.js';
import type { ReviewRun } from './reviewer.js';
import { Reviews } from './reviews.js';

export interface LeadMergesDeps {
  repoRoot: string;
  config: TeamConfig;
  tasks: TaskStore;
  mailbox: MailboxStore;
  log: (e: TeamEvent, at?: Date) => void;
  /** The reviewer agent's run, for `review: "agent"`. */
  runReviewer?: ReviewRun;
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
  /** Follow-ups of queue events (completing, tidying, sending back): a stop waits for them. */
  private readonly followUps = new Set<Promise<unknown>>();
  /** Cancelled tasks already taken out (a watcher reports a file more than once). */
  private readonly withdrawn = new Set<string>();
  /** Tasks whose completion by the guard this lead has logged. */
  private readonly toldCompleted = new RecentIds();

  private readonly reviews: Reviews;

  constructor(private readonly deps: LeadMergesDeps) {
    this.reviews = new Reviews({
      ...deps,
      worktreeOf: (id) => this.worktreePathOf(id),
      accepted: (task) => this.noticeTask(task),
    });
  }

  get enabled(): boolean {
    return this.deps.config.worktrees.mode !== 'off';
  }

  async start(): Promise<void> {
    if (!this.enabled) return;
    const wt = this.deps.config.worktrees;
    const integration = await ensureIntegrationBranch(this.deps.repoRoot, wt.integrationBranch);
    if (!integration.ok) throw new Error(`worktrees: ${integration.error}`);
    this.worktrees = new Worktrees({
      repoRoot: this.deps.repoRoot,
      integrationBranch: wt.integrationBranch,
      setup: wt.setup,
    });
    const unlocked = await this.worktrees.clearStaleLocks();
    if (unlocked.length)
      this.deps.log({
        type: 'notice',
        message: `removed stale git locks a killed git left: ${unlocked.join(', ')}`,
      });
    const queue = await MergeQueue.open({
      repoRoot: this.deps.repoRoot,
      integrationBranch: wt.integrationBranch,
      verify: wt.verify,
      verifyTimeoutMs: wt.verifyTimeoutMs,
      setup: wt.setup,
      guardRefMove: taskRefGuard(
        this.deps.tasks,
        (t) => this.completedByGuard(t),
        (t, merge) => personNeeded(this.deps.repoRoot, wt.integrationBranch, t, merge),
      ),
      onEvent: (e) => this.onQueueEvent(e),
    });
    if (!queue.ok) throw new Error(queue.error);
    this.queue = queue.value;
    await this.queue.recover();
    await this.removeMergedWorktrees();
    await this.reportOrphans();
    // Cancelled while the lead was down: out of the queue, worktree gone, before anything merges.
    for (const t of this.deps.tasks.list({ status: 'cancelled' })) await this.withdraw(t);
    for (const t of this.deps.tasks.list({ status: 'in_progress' })) this.noticeTask(t);
    this.kick();
  }

  /** A task file changed: a finished task not yet in the queue is enqueued; a cancelled one leaves it. */
  noticeTask(task: Task): void {
    if (!this.queue) return;
    if (task.status === 'cancelled') return this.follow(this.withdraw(task));
    if (this.reviews.notice(task) || !awaitingMerge(task)) return;
    const entry = this.queue.entries().find((e) => e.taskId === task.id);
    if (entry && (entry.state === 'queued' || entry.state === 'merging')) return;
    const handoff = task.metadata.merge as MergeHandoff;
    void this.queue
      .enqueue({ taskId: task.id, branch: handoff.branch, agent: handoff.agent, subject: task.subject })
      .then((r) => {
        if (r.ok) this.deps.log({ type: 'merge_queued', task: task.id, branch: handoff.branch });
        this.kick();
      });
  }

  /** The worktree a teammate works in for a task. Serialised: git does not like parallel worktree surgery. */
  grantWorktree(taskId: string, agent: string): Promise<Grant> {
    return this.serialGit(() => this.makeWorktree(taskId, agent));
  }

  /** Stops the queue (a running verify is killed, its entry requeued) and removes the merge worktree. */
  async stop(): Promise<void> {
    await this.reviews.close();
    await this.queue?.close();
    await this.draining;
    // A merge's tidy-up (worktree removal, branch deletion) runs after its event: git must be done with .git.
    while (this.followUps.size) await Promise.allSettled([...this.followUps]);
    await this.gitChain;
    await this.queue?.removeWorktree();
  }

  private worktreePathOf(taskId: string): string {
    if (!this.worktrees) return this.deps.repoRoot;
    const agent = (this.deps.tasks.get(taskId)?.metadata.merge as MergeHandoff | undefined)?.agent;
    const perTeammate = this.deps.config.worktrees.mode === 'per-teammate' && agent;
    return perTeammate ? join(this.deps.repoRoot, '.worktrees', `@${agent}`) : this.worktrees.pathOf(taskId);
  }

  /** Serialised with every other worktree operation of the lead. */
  private serialGit<T>(work: () => Promise<T>): Promise<T> {
    const next = this.gitChain.then(work);
    this.gitChain = next.catch(() => undefined);
    return next;
  }

  /**
   * A cancelled task: its queue entry is cancelled (a running merge aborted)
   * and its own worktree removed, once. Its branch is kept (the work is not
   * merged anywhere else); the running teammate sees the cancel and stops.
   */
  private async withdraw(task: Task): Promise<void> {
    if (this.withdrawn.has(task.id)) return;
    this.withdrawn.add(task.id);
    const done = await this.queue?.cancel(task.id);
    if (done === 'cancelled')
      this.deps.log({
        type: 'notice',
        message: `cancelled ${task.id}: taken out of the merge queue, never merged`,
      });
    if (this.deps.config.worktrees.mode !== 'per-task') return;
    // In the git chain, after a worktree being made for it; only when there is one
    // (a boot with thousands of cancelled tasks must not run git for each).
    const path = this.worktrees!.pathOf(task.id);
    const removed = await this.serialGit(() =>
      existsSync(path)
        ? this.worktrees!.remove(task.id)
        : Promise.resolve({ ok: true as const, value: undefined }),
    );
    if (!removed.ok)
      this.deps.log({
        type: 'notice',
        message: `cancelled ${task.id}: could not remove its worktree: ${removed.error}`,
      });
  }

  private async makeWorktree(taskId: string, agent: string): Promise<Grant> {
    if (!this.worktrees) return { ok: false, error: 'worktrees are not set up' };
    const current = this.deps.tasks.get(taskId);
    if (current?.status === 'cancelled') return { ok: false, error: `task ${taskId} is cancelled` };
    const mode = this.deps.config.worktrees.mode;
    const made =
      mode === 'per-teammate'
        ? await this.worktrees.createForAgent(agent)
        : await this.worktrees.create({ taskId, agent });
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
    const merged = await runGit(path, ['merge', '--no-edit', integration], {
      env: {
        GIT_AUTHOR_NAME: 'teamd',
        GIT_AUTHOR_EMAIL: 'teamd@teamd.local',
        GIT_COMMITTER_NAME: 'teamd',
        GIT_COMMITTER_EMAIL: 'teamd@teamd.local',
      },
    });
    if (merged.exitCode !== 0) {
      const files = await git(path, ['diff', '--name-only', '--diff-filter=U']);
      const list = files.ok ? files.value.trim().split('\n').filter(Boolean) : [];
      await this.deps.tasks.addNote(
        taskId,
        'lead',
        `Merged ${integration} into your branch; resolve the conflict markers in: ${list.join(', ') || '(see git status)'}, then finish.`,
      );
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

  private follow(work: Promise<unknown>): void {
    this.followUps.add(work);
    const done = () => this.followUps.delete(work);
    work.then(done, (err: unknown) => {
      done();
      this.deps.log({ type: 'notice', message: `merge follow-up failed: ${String(err)}` });
    });
  }

  private onQueueEvent(e: MergeEvent): void {
    if (e.type === 'merged') this.follow(this.merged(e.taskId, e.agent, e.mergeCommit));
    else if (e.type === 'merge_refused') this.follow(sendBack(this.deps, e.taskId, e.agent, e));
    else if (e.type === 'merge_cancelled')
      this.deps.log({
        type: 'notice',
        message: `merge of ${e.taskId} ${e.aborted ? 'aborted' : 'dropped'}: ${inReview(this.deps.tasks.get(e.taskId)) ? 'the task waits for a person (teamd review)' : 'the task was cancelled'}; nothing merged`,
      });
    else if (e.type === 'merge_blocked')
      this.deps.log({ type: 'notice', message: `merge queue blocked: ${JSON.stringify(e)}` });
  }

  /** The guard moved the ref and completed the task: its events now, close to the file's change. */
  private completedByGuard(task: Task): void {
    this.toldCompleted.add(task.id);
    const h = handoffOf(task);
    this.deps.log({ type: 'merge_merged', task: task.id, commit: task.result?.mergeCommit ?? '' });
    // The event carries the time of the change, not the time it was logged.
    this.deps.log(
      {
        type: 'task_completed',
        task: task.id,
        agent: h?.agent ?? task.owner ?? 'unknown',
        summary: task.result?.summary ?? 'merged',
      },
      new Date(task.updatedAt),
    );
  }

  /** The integration branch moved: the guard has completed the task already (else it is done here). */
  private async merged(taskId: string, agent: string, mergeCommit: string): Promise<void> {
    let task = this.deps.tasks.get(taskId);
    if (!completedAs(task, mergeCommit)) {
      // Dependants may be claimed the moment the file says completed.
      const done = await this.deps.tasks.update(taskId, (t) =>
        t.status === 'in_progress'
          ? completedByMerge(t, mergeCommit)
          : { ok: false, error: `task is ${t.status}` },
      );
      this.deps.log({ type: 'merge_merged', task: taskId, commit: mergeCommit });
      if (!done.ok)
        return this.deps.log({
          type: 'notice',
          message: `merged ${taskId} but could not complete it: ${done.error}`,
        });
      task = done.value;
      this.deps.log(
        { type: 'task_completed', task: taskId, agent, summary: task.result?.summary ?? 'merged' },
        new Date(task.updatedAt),
      );
    } else if (!this.toldCompleted.has(taskId) && !loggedCompletion(this.deps.repoRoot, taskId)) {
      // Recovered after a kill between the guard's write and its events: tell it now, once.
      this.completedByGuard(task!);
    }
    if (this.deps.config.worktrees.mode === 'per-task')
      await this.serialGit(() => this.tidyMerged(taskId, handoffOf(task!)?.branch));
  }

  /** After a merge: the task's worktree goes, and its branch too unless `keepBranches`. */
  private async tidyMerged(taskId: string, branch: string | undefined): Promise<void> {
    await this.worktrees?.remove(taskId);
    if (this.deps.config.keepBranches || !branch || branch.includes('@')) return;
    const deleted = await runGit(this.deps.repoRoot, ['branch', '-D', '--', branch]);
    if (deleted.exitCode !== 0)
      this.deps.log({
        type: 'notice',
        message: `merged ${taskId}; could not delete branch ${branch}: ${deleted.stderr.trim()}`,
      });
  }

  /** A lead killed between completing a merged task and removing its worktree leaves it behind: tidy up at start. */
  private async removeMergedWorktrees(): Promise<void> {
    if (this.deps.config.worktrees.mode !== 'per-task') return;
    const merged = (id: string) => this.deps.tasks.get(id)?.status === 'completed';
    // Forced like the removal after a merge: what a merged task's worktree still holds (a redone
    // attempt's unfinished edit) is not its work, which is in the integration branch.
    // Merged branches a kill left (between the removal and the branch's deletion) go too, unless kept.
    const deleteMergedBranches = !this.deps.config.keepBranches;
    const cleaned = await cleanWorktrees(this.worktrees!, {
      isFinished: async (id) => merged(id),
      force: true,
      deleteMergedBranches,
    });
    if (cleaned.ok && cleaned.value.removed.length) {
      this.deps.log({
        type: 'notice',
        message: `removed the worktrees of merged tasks: ${cleaned.value.removed.join(', ')}`,
      });
    }
  }

  private async reportOrphans(): Promise<void> {
    const orphans = await this.worktrees!.findOrphans(this.deps.tasks.list().map((t) => t.id));
    if (!orphans.ok) return;
    for (const o of orphans.value)
      this.deps.log({
        type: 'notice',
        message: `orphan worktree ${o.path} (${o.branch ?? 'detached'}); remove it with teamd worktrees clean`,
      });
  }
}

/** Whether the event log already holds the task's completion (a recovery after a kill checks). */
function loggedCompletion(repoRoot: string, taskId: string): boolean {
  // Backwards from the end: a completion being recovered is recent.
  const found = readLastEvents(eventLogPath(repoRoot), 1, (e) => e.type === 'task_completed' && e.task === taskId);
  return found.events.length > 0;
}
