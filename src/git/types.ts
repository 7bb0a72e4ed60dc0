/**
 * The git layer's contracts: task worktrees, the merge queue's entries and the
 * outcomes it reports. Everything here is plain data (it crosses
 * `worker_threads` and is written as JSON); failures a caller must branch on
 * are values, never exceptions.
 */
import { z } from 'zod';
import { AgentNameSchema, IdSchema, type Outcome } from '../store/types.js';

export type { Outcome } from '../store/types.js';

/** The branch finished work merges into, unless the config names another. */
export const DEFAULT_INTEGRATION_BRANCH = 'teamd/integration';

/** Folder (under the repository root) that holds every worktree teamd makes. */
export const WORKTREES_DIR = '.worktrees';

/**
 * The merge queue's own worktree, `.worktrees/.merge`, always on a detached
 * HEAD. Ids never start with a dot, so it cannot collide with a task.
 */
export const MERGE_WORKTREE_NAME = '.merge';

/**
 * Per-teammate worktrees are `.worktrees/@<agent>` on branch `teamd/@<agent>`.
 * Ids and agent names never contain `@`, so these never collide with a task's
 * `.worktrees/<task-id>` (a task may well be called `agent-x`).
 */
export const AGENT_WORKTREE_PREFIX = '@';

/** Folders the team coordinates through: never committed from a worktree. */
export const TEAM_FOLDERS = ['.tasks', '.mailboxes', '.cron', '.team', '.worktrees'] as const;

/** Who commits merges, and the committer of every teammate commit. */
export const TEAMD_IDENTITY = { name: 'teamd', email: 'teamd@teamd.local' } as const;

/** What kind of worktree a folder under `.worktrees/` is. */
export type WorktreeKind = 'task' | 'agent' | 'merge';

/** One worktree under `.worktrees/`, as `Worktrees.list()` reports it. */
export interface WorktreeRecord {
  kind: WorktreeKind;
  /** The task id (kind `task`), else null. */
  taskId: string | null;
  /** The teammate's name (kind `agent`), else null. */
  agent: string | null;
  /** Absolute path. */
  path: string;
  /** Short branch name (`teamd/<id>`), or null on a detached HEAD. */
  branch: string | null;
  /** Commit id checked out, or null when git could not tell. */
  head: string | null;
  /** Uncommitted changes (tracked or untracked, not ignored). */
  dirty: boolean;
  /** Bytes on disk of every file under the folder (ignored files included). */
  sizeBytes: number;
  /** Git marked it prunable: its folder is gone or broken. */
  prunable: boolean;
}

/** A task worktree that `Worktrees.create` made or adopted. */
export interface TaskWorktree {
  path: string;
  branch: string;
  /** True when the branch already existed (a restart or an adoption) and was reused. */
  reusedBranch: boolean;
  /** True when the worktree itself already existed on that branch and was kept as is. */
  reusedWorktree: boolean;
  /** Files copied from the main checkout because `.worktreeinclude` listed them. */
  copiedFiles: string[];
}

/** A teammate's long-lived worktree, as `Worktrees.createForAgent` prepared it. */
export interface AgentWorktree {
  path: string;
  branch: string;
  /**
   * Whether the worktree now starts from the integration tip. It is brought
   * there only when clean: reset when its commits are all merged, rebased when
   * some are not. `note` says why it was left alone otherwise.
   */
  synced: boolean;
  note: string | null;
}

/** Result of running a setup or verify command. */
export interface ShellResult {
  /** Exit code, or null when killed by a signal or the timeout. */
  exitCode: number | null;
  timedOut: boolean;
  /** The last lines of stdout and stderr, interleaved as they came. */
  outputTail: string;
}

/** Options every command of this layer needs: where the repository is and which branch integrates. */
export interface RepoOptions {
  /** The main checkout (the folder that holds `.git`). */
  repoRoot: string;
  /** Defaults to `teamd/integration`. */
  integrationBranch?: string;
}

// ─── Merge queue ────────────────────────────────────────────────────────────

/**
 * An entry's lifecycle: `queued → merging → merged | refused`.
 * `merging → queued` happens only in `recover()` (a crash mid-merge), and
 * `refused → queued` when the task is enqueued again after its owner fixed it.
 * `cancelled`: the task was cancelled before its merge moved the integration
 * branch (taken out of the queue, or its merge aborted); final.
 */
export const MergeEntryStateSchema = z.enum(['queued', 'merging', 'merged', 'refused', 'cancelled']);
export type MergeEntryState = z.infer<typeof MergeEntryStateSchema>;

/**
 * Why an entry was refused. `conflict`: the branch does not merge cleanly into
 * the integration tip. `verify_failed`: it merged, but the verify command
 * failed or timed out. `error`: git itself failed (a missing branch, …).
 */
export const RefusalReasonSchema = z.enum(['conflict', 'verify_failed', 'error']);
export type RefusalReason = z.infer<typeof RefusalReasonSchema>;

export const RefusalSchema = z.strictObject({
  reason: RefusalReasonSchema,
  /** A human (and model) readable explanation, fit to send to the task's owner. */
  message: z.string(),
  /** Files with conflicts (reason `conflict`). */
  conflictFiles: z.array(z.string()).default([]),
  /** The verify command's last output lines (reason `verify_failed`). */
  outputTail: z.string().default(''),
});
export type Refusal = z.infer<typeof RefusalSchema>;

export const MergeEntrySchema = z.strictObject({
  taskId: IdSchema,
  /** The task branch, e.g. `teamd/<task-id>` (or `teamd/@<agent>` per teammate). */
  branch: z.string().min(1),
  agent: AgentNameSchema,
  subject: z.string(),
  state: MergeEntryStateSchema,
  enqueuedAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
  /** How many times processing started (a crash mid-merge counts one). */
  attempts: z.number().int().min(0).default(0),
  /** Tips recorded when merging started: what was merged onto what. */
  branchTip: z.string().nullable().default(null),
  baseTip: z.string().nullable().default(null),
  /** The commit the integration branch moved to (state `merged`). */
  mergeCommit: z.string().nullable().default(null),
  refusal: RefusalSchema.nullable().default(null),
  /** Process group of a running verify command, so a restart can stop an orphan. */
  verifyPid: z.number().int().positive().nullable().default(null),
});
export type MergeEntry = z.infer<typeof MergeEntrySchema>;

/** `.team/state/merge-queue.json`. Entries in queue order; finished ones are kept as history. */
export const MergeQueueFileSchema = z.strictObject({
  version: z.literal(1),
  integrationBranch: z.string().min(1),
  entries: z.array(MergeEntrySchema),
});
export type MergeQueueFile = z.infer<typeof MergeQueueFileSchema>;

/** What `enqueue` takes: the task, its branch, who did it and its subject (for the merge message). */
export const EnqueueRequestSchema = z.strictObject({
  taskId: IdSchema,
  branch: z.string().min(1),
  agent: AgentNameSchema,
  subject: z.string(),
});
export type EnqueueRequest = z.infer<typeof EnqueueRequestSchema>;

/** Options of a merge queue: the repository plus the optional verify command. */
export interface MergeQueueOptions extends RepoOptions {
  /** Run with `sh -c` in the merge worktree after merging, before the integration branch moves. */
  verify?: string;
  verifyTimeoutMs?: number;
  /** Run once in a newly made merge worktree (e.g. `npm ci`, so `verify` has dependencies). */
  setup?: string;
  setupTimeoutMs?: number;
  /** Receives every event, in order. Must not throw. */
  onEvent?: (event: MergeEvent) => void;
  /** Runs the integration branch's move for a task (see `RefMoveGuard`); without one the move just happens. */
  guardRefMove?: RefMoveGuard;
  /** Finished entries kept in the file as history (oldest dropped first). Default 200. */
  historyLimit?: number;
}

/**
 * Events of the merge queue, plain objects. `merged` and `merge_refused` are
 * also what `processNext()` returns; the daemon branches on `type` (and on
 * `reason` for a refusal) to record the merge commit in the task's result or
 * send the task back to its owner with `message`.
 */
export type MergeEvent =
  | { type: 'merge_started'; taskId: string; branch: string; agent: string; attempt: number }
  | MergedEvent
  | MergeRefusedEvent
  | MergeBlockedEvent
  | { type: 'merge_recovered'; taskId: string; branch: string; action: 'requeued' | 'already_merged' }
  | MergeCancelledEvent;

/** The task was cancelled: its entry left the queue (or its merge was aborted before the ref moved). */
export interface MergeCancelledEvent {
  type: 'merge_cancelled';
  taskId: string;
  branch: string;
  agent: string;
  /** True when a merge was in progress and was aborted. */
  aborted: boolean;
}

/**
 * Moves the integration branch for one task, or refuses to: the daemon runs
 * `move` under the task's lock after checking that the task still wants its
 * merge (not cancelled), so a cancel and a merge never both win. `withdrawn`
 * carries why the task no longer wants it; `error` means `move` itself failed.
 * `move` resolves to the commit the integration branch now points at.
 */
export type RefMoveGuard = (taskId: string, move: () => Promise<Outcome<string>>, merge?: MergeTips) => Promise<RefMoveOutcome>;
/**
 * The commits of the move a guard is asked about: the integration tip the
 * merge was made on, the branch tip it merged (read when the merge started:
 * the branch may have moved since) and the merge commit the ref would move to.
 */
export interface MergeTips {
  baseTip: string;
  branchTip: string;
  newTip: string;
}
export type RefMoveOutcome = { kind: 'moved' } | { kind: 'withdrawn'; reason: string } | { kind: 'error'; error: string };

export interface MergedEvent {
  type: 'merged';
  taskId: string;
  branch: string;
  agent: string;
  /** The commit the integration branch now points at (or that already contained the branch). */
  mergeCommit: string;
  /** Integration tip before the merge. */
  previousTip: string;
  /** True when the integration branch already contained the branch tip: nothing was merged twice. */
  alreadyMerged: boolean;
}

export interface MergeRefusedEvent extends Refusal {
  type: 'merge_refused';
  taskId: string;
  branch: string;
  agent: string;
}

/**
 * The queue cannot merge anything right now, through no fault of the task:
 * e.g. the integration branch is checked out in a working tree (moving it with
 * `update-ref` would desync that tree). The entry stays `queued`.
 */
export interface MergeBlockedEvent {
  type: 'merge_blocked';
  taskId: string;
  message: string;
}

/** What one `processNext()` did. */
export type MergeResult = MergedEvent | MergeRefusedEvent | MergeBlockedEvent | MergeCancelledEvent;

/** What `cleanWorktrees` did: removed task worktrees, those kept and why, branches deleted. */
export interface CleanReport {
  removed: string[];
  kept: { taskId: string; reason: string }[];
  deletedBranches: string[];
  errors: { taskId: string; error: string }[];
}
