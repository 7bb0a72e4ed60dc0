/**
 * `teamd top`: what the dashboard shows, as plain data read from the team's
 * files. Panels are pure functions from this state to lines of text, so a
 * frame can be tested without a terminal; the ink components only lay them
 * out. Nothing here needs the daemon: a finished team reads the same way.
 */
import type { CostReport } from '../observe/cost.js';
import type { BudgetState } from '../observe/budget.js';
import type { TeamStatus } from '../observe/status.js';
import type { LoggedEvent } from '../observe/types.js';
import type { Message, TaskStatus } from '../store/types.js';
import type { PendingRequest } from '../teammate/requests.js';

/**
 * How a teammate is shown. `waiting` is waiting for an approval; `stalled`
 * means no heartbeat or no progress for `stallAfterMs`; `dead` means its
 * process is gone (no running lead) while it was not stopped.
 */
export type TeammateLook = TeamStatus['teammates'][number]['state'];

export interface TeammateView {
  name: string;
  look: TeammateLook;
  task: string | null;
  heartbeatAgeMs: number | null;
  /**
   * Runs (one task or one batch of mail each), all time, from the transcripts
   * like `tokens` and `costUsd`; null when there are no transcripts yet (then
   * tokens and cost are the status file's counters, since the daemon started).
   */
  runs: number | null;
  /** Prompt (fresh + cached) and output tokens, from the transcripts (cost.ts); the status file's counters when there are none yet. */
  tokens: { input: number; output: number };
  costUsd: number;
  overBudget: boolean;
  /** Why it is stalled, when it is. */
  stall: 'no_heartbeat' | 'no_progress' | null;
}

/** One task as a node of the dependency graph. */
export interface TaskNode {
  id: string;
  subject: string;
  status: TaskStatus;
  owner: string | null;
  blockedBy: string[];
  /** Blockers not completed yet (what this task waits for). */
  waitingFor: string[];
  ready: boolean;
  merge: string | null;
  /** 0 for a task with no dependencies, else 1 + the deepest dependency; null inside (or behind) a cycle. */
  depth: number | null;
}

export interface MailboxView {
  agent: string;
  unread: number;
  latest: Pick<Message, 'from' | 'type' | 'content' | 'ts'> | null;
}

export interface DashboardState {
  /** The clock the state was read at (epoch ms); ages are relative to it. */
  now: number;
  lead: TeamStatus['lead'];
  teammates: TeammateView[];
  tasks: TaskNode[];
  taskCounts: Record<TaskStatus, number>;
  /** The newest events, oldest first. */
  events: LoggedEvent[];
  /** How many events the dashboard's feed has seen (its first window included). */
  eventCount: number;
  /** Events appended since the previous read (empty on the first): these may ring the bell. */
  fresh: LoggedEvent[];
  mail: MailboxView[];
  cron: TeamStatus['cron'];
  merges: TeamStatus['merges'];
  approvals: PendingRequest[];
  cost: CostReport;
  budget: BudgetState;
  /** True once the team finished (a `team_finished` or `daemon_stopped` event and no running lead). */
  finished: boolean;
}

/** Where the dashboard's state comes from: the files, re-read when they change. */
export interface TeamSource {
  load(): Promise<DashboardState>;
  /** Calls `onChange` (a hint: re-load) when the team's files change; returns the unsubscribe. */
  watch(onChange: () => void): () => void;
}

/** A piece of a line with a meaning the theme turns into colour (or nothing, with NO_COLOR). */
export type Tone = 'ok' | 'busy' | 'warn' | 'alert' | 'bad' | 'muted' | 'accent' | 'plain';

export interface Segment {
  text: string;
  tone?: Tone;
  bold?: boolean;
  inverse?: boolean;
}

/** One row of a panel. */
export type Line = Segment[];
