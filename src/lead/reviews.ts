/**
 * The lead's side of review before merge (`review: "human" | "agent"`): a
 * finished task goes into review instead of the merge queue; a person
 * answers with `teamd accept` / `teamd reject`, the reviewer agent answers
 * on its own — bounded by `reviewRounds` rejections, then a person decides.
 */
import { RecentIds } from './recent-ids.js';
import type { TeamConfig } from '../config/schema.js';
import { reviewDiff } from '../git/review-diff.js';
import type { TeamEvent } from '../observe/types.js';
import type { MailboxStore } from '../store/mailbox/index.js';
import type { TaskStore } from '../store/tasks/index.js';
import type { Task } from '../store/types.js';
import { acceptedByPerson, holdForPerson, personNeeded } from './protected-review.js';
import { awaitingMerge } from './reconcile.js';
import { parseVerdict, reviewPrompt, type ReviewRun } from './reviewer.js';
import {
  acceptReview,
  agentRejections,
  handOver,
  inReview,
  needsReview,
  rejectReview,
  toReview,
  type ReviewedHandoff,
} from './review-state.js';

export interface ReviewsDeps {
  repoRoot: string;
  config: TeamConfig;
  tasks: TaskStore;
  mailbox: MailboxStore;
  log: (e: TeamEvent) => void;
  /** The reviewer agent's run (absent: agent reviews go to a person). */
  runReviewer?: ReviewRun;
  /** The task's worktree, where the reviewer reads. */
  worktreeOf: (taskId: string) => string;
  /** An accepted task: to the merge queue. */
  accepted: (task: Task) => void;
}

const handoffOf = (t: Task): ReviewedHandoff => t.metadata.merge as ReviewedHandoff;

export class Reviews {
  private readonly running = new Map<string, Promise<void>>();
  private readonly closing = new AbortController();
  /** `task@commit` whose changes were checked and touch nothing that steers the agents. */
  private readonly cleared = new RecentIds();
  private readonly checking = new Set<string>();

  constructor(private readonly deps: ReviewsDeps) {}

  /** Whether the task is the reviews' business now (into review, or waiting in one); true stops the merge queue taking it. */
  notice(task: Task): boolean {
    if (needsReview(task, this.deps.config)) {
      void this.request(task.id);
      return true;
    }
    if (inReview(task)) {
      if (handoffOf(task).review?.mode === 'agent') void this.runAgent(task.id);
      return true;
    }
    return awaitingMerge(task) && this.guardProtected(task);
  }

  /**
   * Before the merge queue takes a task no person accepted: its changes are
   * checked for files that steer the agents (held while checking). Such a
   * task goes to a person's review, whatever `review` says.
   */
  private guardProtected(task: Task): boolean {
    const key = `${task.id}@${handoffOf(task).commit ?? ''}`;
    if (acceptedByPerson(task) || this.cleared.has(key)) return false;
    if (!this.checking.has(key)) {
      this.checking.add(key);
      void this.checkProtected(task, key).finally(() => this.checking.delete(key));
    }
    return true;
  }

  private async checkProtected(task: Task, key: string): Promise<void> {
    const why = await personNeeded(this.deps.repoRoot, this.deps.config.worktrees.integrationBranch, task);
    if (why === null) {
      this.cleared.add(key);
      const now = this.deps.tasks.get(task.id);
      if (now) this.deps.accepted(now);
      return;
    }
    const held = await this.deps.tasks.update(task.id, (t) => holdForPerson(t, why, new Date()));
    if (!held.ok) return;
    const agent = handoffOf(held.value).agent;
    this.deps.log({ type: 'review_requested', task: task.id, agent, mode: 'human', reason: why });
    this.deps.log({ type: 'notice', message: `task ${task.id} waits for a person (teamd review ${task.id}): ${why}` });
  }

  private async request(id: string): Promise<void> {
    const moved = await this.deps.tasks.update(id, (t) => toReview(t, this.deps.config, new Date()));
    if (!moved.ok) return;
    const review = handoffOf(moved.value).review!;
    this.deps.log({
      type: 'review_requested',
      task: id,
      agent: handoffOf(moved.value).agent,
      mode: review.mode,
      reason: review.handedOver,
    });
    if (review.mode === 'agent') await this.runAgent(id);
  }

  /** One reviewer run at a time per task; its verdict is written under the task's lock. */
  private runAgent(id: string): Promise<void> {
    const running = this.running.get(id);
    if (running) return running;
    const run = this.reviewOnce(id).finally(() => this.running.delete(id));
    this.running.set(id, run);
    return run;
  }

  /** Stops reviewer runs; their tasks stay in review and are reviewed again at the next start. */
  async close(): Promise<void> {
    this.closing.abort();
    await Promise.all(this.running.values());
  }

  private async reviewOnce(id: string): Promise<void> {
    const task = this.deps.tasks.get(id);
    if (!task || !inReview(task) || this.closing.signal.aborted) return;
    const verdict = await this.askReviewer(task);
    if (!this.closing.signal.aborted) await this.answer(id, verdict.decision, verdict.reasons);
  }

  private async askReviewer(task: Task): Promise<ReturnType<typeof parseVerdict>> {
    if (!this.deps.runReviewer) return { decision: 'undecided', reasons: 'no reviewer agent is available' };
    const branch = handoffOf(task).branch;
    const diff = await reviewDiff(this.deps.repoRoot, this.deps.config.worktrees.integrationBranch, branch);
    if (!diff.ok) return { decision: 'undecided', reasons: `could not diff ${branch}: ${diff.error}` };
    const rounds = this.deps.config.reviewRounds;
    try {
      const prompt = reviewPrompt(task, diff.value, agentRejections(task) + 1, rounds);
      const text = await this.deps.runReviewer(prompt, this.deps.worktreeOf(task.id), this.closing.signal);
      return parseVerdict(text);
    } catch (err) {
      return { decision: 'undecided', reasons: `the reviewer failed: ${(err as Error).message}` };
    }
  }

  private async answer(
    id: string,
    decision: 'accept' | 'reject' | 'undecided',
    reasons: string,
  ): Promise<void> {
    const { tasks, config } = this.deps;
    const now = new Date();
    if (decision === 'undecided') {
      const r = await tasks.update(id, (t) => handOver(t, `the reviewer could not decide: ${reasons}`));
      if (r.ok)
        this.deps.log({
          type: 'review_requested',
          task: id,
          agent: handoffOf(r.value).agent,
          mode: 'human',
          reason: handoffOf(r.value).review?.handedOver,
        });
      return;
    }
    const r = await tasks.update(id, (t) =>
      decision === 'accept'
        ? acceptReview(t, 'reviewer', now)
        : rejectReview(t, 'reviewer', reasons || 'no reason given', config.maxAttempts, now),
    );
    if (!r.ok) return;
    await reportAnswer(this.deps, r.value, decision === 'accept', 'reviewer', reasons);
    if (decision === 'accept') this.deps.accepted(r.value);
  }
}

/** After an answer (from the reviewer or a person): the event, and the owner told of a rejection. */
export async function reportAnswer(
  deps: Pick<ReviewsDeps, 'mailbox' | 'log'>,
  task: Task,
  accepted: boolean,
  by: string,
  reason: string,
): Promise<void> {
  const agent = handoffOf(task).agent;
  deps.log({ type: 'review_answered', task: task.id, agent, accepted, by, reason });
  if (accepted) return;
  if (task.status === 'failed')
    return deps.log({
      type: 'task_failed',
      task: task.id,
      agent,
      error: task.result?.summary ?? 'review rejected',
    });
  const content = `Your task ${task.id} was not accepted by ${by} in review. It is back on the board for you:\n${reason}`;
  await deps.mailbox.send({
    from: 'lead',
    to: agent,
    type: 'message',
    content,
    metadata: { task_id: task.id },
  });
}
