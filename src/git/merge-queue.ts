import { realpathSync } from 'node:fs';
import { z } from 'zod';
import { checkIntegrationNotCheckedOut, ensureIntegrationBranch } from './integration.js';
import {
  attemptMerge,
  defaultVerifyTimeout,
  findMergeCommit,
  type AttemptContext,
  type AttemptResult,
} from './merge-attempt.js';
import { moveEntry } from './merge-queue-file.js';
import { MergeQueueState } from './merge-queue-state.js';
import { MergeWorktree } from './merge-worktree.js';
import { removeStaleRefLock } from './ref-lock.js';
import { isAncestor, resolveCommit } from './run-git.js';
import { killOrphanGroup } from './run-shell.js';
import {
  DEFAULT_INTEGRATION_BRANCH,
  EnqueueRequestSchema,
  type EnqueueRequest,
  type MergeEntry,
  type MergeEvent,
  type MergeQueueOptions,
  type MergeResult,
  type Outcome,
} from './types.js';

/** Rounds of one `processNext` when the integration branch keeps moving under it. */
const MAX_ROUNDS = 3;
const DEFAULT_HISTORY_LIMIT = 200;

/**
 * Merges finished task branches into the integration branch, one at a time,
 * in `.worktrees/.merge`. The queue lives in `.team/state/merge-queue.json`,
 * written atomically after every change, so the CLI (another process) and a
 * restarted daemon see it. One process writes it: the lead, which holds the
 * team's pid lock.
 */
export class MergeQueue implements AsyncDisposable {
  readonly file: string;
  private readonly worktree: MergeWorktree;
  private readonly closing = new AbortController();
  private mergeChain: Promise<unknown> = Promise.resolve();
  /** The entry being merged and the switch that aborts its attempt (a cancel). */
  private running: { taskId: string; abort: AbortController } | null = null;
  private readonly cancelled = new Set<string>();

  private constructor(
    private readonly repoRoot: string,
    readonly integrationBranch: string,
    private readonly options: MergeQueueOptions,
    private readonly state: MergeQueueState,
  ) {
    this.file = state.file;
    this.worktree = new MergeWorktree(repoRoot, {
      setup: options.setup,
      setupTimeoutMs: options.setupTimeoutMs,
    });
  }

  /** Loads the queue file (an invalid one is an error naming the file and field). */
  static async open(options: MergeQueueOptions): Promise<Outcome<MergeQueue>> {
    const repoRoot = realpathSync(options.repoRoot);
    const branch = options.integrationBranch ?? DEFAULT_INTEGRATION_BRANCH;
    const state = await MergeQueueState.load(repoRoot, branch, options.historyLimit ?? DEFAULT_HISTORY_LIMIT);
    if (!state.ok) return state;
    return { ok: true, value: new MergeQueue(repoRoot, branch, options, state.value) };
  }

  /** A snapshot of the entries, in queue order. */
  entries(): MergeEntry[] {
    return this.state.entries.map((e) => ({ ...e }));
  }

  /**
   * Adds a finished task's branch. Enqueuing a task already queued updates it
   * in place; one refused (or merged) before goes to the back of the queue again.
   */
  async enqueue(request: EnqueueRequest): Promise<Outcome<MergeEntry>> {
    const parsed = EnqueueRequestSchema.safeParse(request);
    if (!parsed.success) return { ok: false, error: `merge queue entry: ${z.prettifyError(parsed.error)}` };
    return { ok: true, value: await this.state.enqueue(parsed.data) };
  }

  /**
   * Takes a cancelled task out of the queue: a queued (or refused) entry
   * becomes `cancelled`; a merging one has its attempt aborted (a running
   * verify is killed) and becomes `cancelled` unless the integration branch
   * already moved. The ref move itself is guarded by `guardRefMove`, so a
   * cancel that lands at the last instant still wins. Returns what it did.
   */
  async cancel(taskId: string): Promise<'cancelled' | 'aborting' | 'none'> {
    if (this.running?.taskId === taskId) {
      this.cancelled.add(taskId);
      this.running.abort.abort();
      return 'aborting';
    }
    // Not through the merge chain: a cancel must not wait for another task's verify.
    let from: MergeEntry | null = null;
    const entry = this.state.entries.find((e) => e.taskId === taskId);
    if (!entry) return 'none';
    await this.update(taskId, (e) => {
      if (e.state !== 'queued' && e.state !== 'refused') return e;
      from = e;
      return moveEntry(e, 'cancelled', { verifyPid: null });
    });
    if (!from) return 'none';
    this.emit({ type: 'merge_cancelled', taskId, branch: entry.branch, agent: entry.agent, aborted: false });
    return 'cancelled';
  }

  /** Removes the merge worktree (at the daemon's stop); the next merge makes it again. */
  removeWorktree(): Promise<void> {
    return this.serialMerge(() => this.worktree.discard());
  }

  /** Merges the first queued entry; null when none is queued. */
  processNext(): Promise<MergeResult | null> {
    return this.serialMerge(() => this.mergeFirstQueued());
  }

  /** Processes entries until none is queued or the queue is blocked. */
  async drain(): Promise<MergeResult[]> {
    const results: MergeResult[] = [];
    for (;;) {
      const result = await this.processNext();
      if (result === null) return results;
      results.push(result);
      if (result.type === 'merge_blocked') return results;
    }
  }

  /**
   * After a crash: entries left `merging` are settled. One whose branch tip the
   * integration branch already contains (the ref moved, the file was not yet
   * written) is marked merged without merging again; any other goes back to
   * `queued` with a fresh merge worktree. Call once at start, before processing.
   */
  recover(): Promise<MergeEvent[]> {
    return this.serialMerge(async () => {
      const stuck = this.state.entries.filter((e) => e.state === 'merging');
      if (stuck.length === 0) return [];
      for (const entry of stuck) {
        if (entry.verifyPid !== null) await killOrphanGroup(entry.verifyPid, this.worktree.path);
      }
      await this.worktree.discard();
      await removeStaleRefLock(this.repoRoot, this.integrationBranch);
      const events: MergeEvent[] = [];
      for (const entry of stuck) events.push(...(await this.settleStuck(entry)));
      return events;
    });
  }

  /** Stops a running verify (its entry goes back to `queued`) and waits for the queue to settle. */
  async close(): Promise<void> {
    this.closing.abort();
    await this.mergeChain.catch(() => undefined);
    await this.state.settled();
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  private async mergeFirstQueued(): Promise<MergeResult | null> {
    const entry = this.state.entries.find((e) => e.state === 'queued');
    if (!entry || this.closing.signal.aborted) return null;
    const ready = await this.checkReady();
    if (!ready.ok) return this.emit({ type: 'merge_blocked', taskId: entry.taskId, message: ready.error });
    for (let round = 1; ; round++) {
      const abort = new AbortController();
      this.running = { taskId: entry.taskId, abort };
      try {
        const started = await this.start(entry.taskId);
        // Cancelled while we got ready: take the next one.
        if (started === null) return this.mergeFirstQueued();
        const result = await this.attemptOnce(started, abort.signal);
        const retry = result.kind === 'requeue' && result.retry && round < MAX_ROUNDS;
        if (!retry) return await this.settle(started, result);
        await this.update(entry.taskId, (e) => moveEntry(e, 'queued', { verifyPid: null }));
      } finally {
        this.running = null;
        this.cancelled.delete(entry.taskId);
      }
    }
  }

  /** One attempt that a cancel can abort; an aborted one that did not merge is `cancelled`. */
  private async attemptOnce(started: MergeEntry, cancel: AbortSignal): Promise<AttemptResult> {
    if (this.cancelled.has(started.taskId)) return cancelledWhileMerging(started);
    const result = await this.attempt(started, AbortSignal.any([this.closing.signal, cancel]));
    return this.cancelled.has(started.taskId) && result.kind !== 'merged' ? cancelledWhileMerging(started) : result;
  }

  private async attempt(started: MergeEntry, signal: AbortSignal): Promise<AttemptResult> {
    const { baseTip, branchTip } = started;
    if (branchTip === null) return missingBranch(started);
    if (baseTip === null) {
      return {
        kind: 'requeue',
        message: `integration branch ${this.integrationBranch} is missing`,
        retry: false,
      };
    }
    return attemptMerge(this.context(signal), started, { baseTip, branchTip });
  }

  private async checkReady(): Promise<Outcome<void>> {
    const integration = await ensureIntegrationBranch(this.repoRoot, this.integrationBranch);
    if (!integration.ok) return integration;
    return checkIntegrationNotCheckedOut(this.repoRoot, this.integrationBranch);
  }

  /** Records the tips about to be merged, before any git work: recovery needs them. */
  private async start(taskId: string): Promise<MergeEntry | null> {
    const baseTip = await resolveCommit(this.repoRoot, `refs/heads/${this.integrationBranch}`);
    const branchTip = await resolveCommit(this.repoRoot, `refs/heads/${this.state.find(taskId).branch}`);
    const patch = { baseTip, branchTip, refusal: null, mergeCommit: null, verifyPid: null };
    const started = await this.update(taskId, (e) =>
      e.state === 'queued' ? moveEntry(e, 'merging', { ...patch, attempts: e.attempts + 1 }) : e,
    );
    if (started.state !== 'merging') return null;
    const { branch, agent } = started;
    this.emit({ type: 'merge_started', taskId, branch, agent, attempt: started.attempts });
    return started;
  }

  private async settle(entry: MergeEntry, result: AttemptResult): Promise<MergeResult> {
    const { taskId, branch, agent } = entry;
    if (result.kind === 'merged') {
      const { mergeCommit, alreadyMerged } = result;
      await this.update(taskId, (e) => moveEntry(e, 'merged', { mergeCommit, verifyPid: null }));
      return this.emit({
        type: 'merged',
        taskId,
        branch,
        agent,
        mergeCommit,
        previousTip: entry.baseTip ?? '',
        alreadyMerged,
      });
    }
    if (result.kind === 'cancelled') {
      await this.update(taskId, (e) => moveEntry(e, 'cancelled', { verifyPid: null }));
      return this.emit({ type: 'merge_cancelled', taskId, branch, agent, aborted: true });
    }
    if (result.kind === 'refused') {
      await this.update(taskId, (e) => moveEntry(e, 'refused', { refusal: result.refusal, verifyPid: null }));
      return this.emit({ type: 'merge_refused', taskId, branch, agent, ...result.refusal });
    }
    await this.update(taskId, (e) => moveEntry(e, 'queued', { verifyPid: null }));
    return this.emit({ type: 'merge_blocked', taskId, message: result.message });
  }

  private async settleStuck(entry: MergeEntry): Promise<MergeEvent[]> {
    const { taskId, branch, agent } = entry;
    const tip = await resolveCommit(this.repoRoot, `refs/heads/${this.integrationBranch}`);
    const { branchTip } = entry;
    if (branchTip && tip && (await isAncestor(this.repoRoot, branchTip, tip))) {
      const mergeCommit = await findMergeCommit(this.repoRoot, branchTip, tip);
      await this.update(taskId, (e) => moveEntry(e, 'merged', { mergeCommit, verifyPid: null }));
      const previousTip = entry.baseTip ?? '';
      return [
        this.emit({ type: 'merge_recovered', taskId, branch, action: 'already_merged' }),
        this.emit({ type: 'merged', taskId, branch, agent, mergeCommit, previousTip, alreadyMerged: true }),
      ];
    }
    await this.update(taskId, (e) => moveEntry(e, 'queued', { verifyPid: null }));
    return [this.emit({ type: 'merge_recovered', taskId, branch, action: 'requeued' })];
  }

  private context(signal: AbortSignal): AttemptContext {
    return {
      repoRoot: this.repoRoot,
      integrationBranch: this.integrationBranch,
      worktree: this.worktree,
      verify: this.options.verify,
      verifyTimeoutMs: defaultVerifyTimeout(this.options.verifyTimeoutMs),
      signal,
      onVerifySpawn: (pid) => this.recordVerifyPid(pid),
      guardRefMove: this.options.guardRefMove,
    };
  }

  private async recordVerifyPid(pid: number): Promise<void> {
    const merging = this.state.entries.find((e) => e.state === 'merging');
    if (merging) await this.update(merging.taskId, (e) => ({ ...e, verifyPid: pid }));
  }

  private update(taskId: string, change: (entry: MergeEntry) => MergeEntry): Promise<MergeEntry> {
    return this.state.update(taskId, change);
  }

  private serialMerge<T>(work: () => Promise<T>): Promise<T> {
    const run = this.mergeChain.then(work, work);
    this.mergeChain = run.catch(() => undefined);
    return run;
  }

  private emit<E extends MergeEvent>(event: E): E {
    this.options.onEvent?.(event);
    return event;
  }
}

function cancelledWhileMerging(entry: MergeEntry): AttemptResult {
  return { kind: 'cancelled', message: `task ${entry.taskId} was cancelled while merging` };
}

function missingBranch(entry: MergeEntry): AttemptResult {
  const message = `branch ${entry.branch} of task ${entry.taskId} does not exist`;
  return { kind: 'refused', refusal: { reason: 'error', message, conflictFiles: [], outputTail: '' } };
}
