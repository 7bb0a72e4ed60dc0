/**
 * What `teamd web` sends to its page: plain JSON, the one contract between
 * the server (src/web/) and the browser code (web/). This file imports
 * nothing, so the page's own tsconfig can include it without Node's types.
 */

export type WireTaskStatus = 'pending' | 'in_progress' | 'completed' | 'failed' | 'cancelled';

/** One task as a node of the drawn graph. */
export interface WireTask {
  id: string;
  subject: string;
  status: WireTaskStatus;
  owner: string | null;
  blockedBy: string[];
  /** Blockers that name no task on the board (drawn as a red stub). */
  dangling: string[];
  /** On a dependency cycle (not merely behind one). */
  inCycle: boolean;
  /** On the critical path: the longest chain of unfinished tasks, what bounds the remaining work. */
  critical: boolean;
  /** Layer of the graph: 0 without dependencies, else 1 + the deepest dependency; null in or behind a cycle. */
  depth: number | null;
  ready: boolean;
  /** The merge hand-off's state (`review`, `queued`, `merged`, …), if any. */
  merge: string | null;
}

export interface WireTeammate {
  name: string;
  /** starting, idle, working, waiting, stopping, stopped, stalled, dead. */
  look: string;
  task: string | null;
  heartbeatAgeMs: number | null;
  turns: number;
  runs: number | null;
  tokens: { input: number; output: number };
  costUsd: number;
  model: string;
  /** Where the config runs it: `thread`, `process`, `sandbox`, or `ssh <target>`. */
  host: string;
  overBudget: boolean;
}

export interface WireApproval {
  id: string;
  agent: string;
  kind: string;
  task: string | null;
  summary: string;
}

export interface WireReview {
  task: string;
  subject: string;
  owner: string | null;
}

export interface WireMailbox {
  agent: string;
  unread: number;
  latest: { from: string; type: string; content: string; ts: string } | null;
}

export interface WireEvent {
  ts: string;
  type: string;
  agent: string | null;
  task: string | null;
  /** The event as one readable line (the same words as `teamd logs`). */
  text: string;
}

/** Cumulative spend of one teammate or model at the times its runs were written. */
export interface CostSeries {
  key: string;
  points: { t: number; usd: number }[];
}

export interface WireSnapshot {
  now: number;
  lead: { running: boolean; pid: number | null; paused: boolean };
  finished: boolean;
  teammates: WireTeammate[];
  tasks: WireTask[];
  counts: Record<WireTaskStatus, number>;
  approvals: WireApproval[];
  reviews: WireReview[];
  mail: WireMailbox[];
  cron: { id: string; cron: string; to: string; next: string | null; done: boolean }[];
  merges: { taskId: string; state: string; detail: string | null }[];
  events: WireEvent[];
  cost: { totalUsd: number; byTeammate: CostSeries[]; byModel: CostSeries[] };
  /** The team's spend against `maxBudgetUsd` (null: no budget), and who is at or over their own. */
  budget: { spentUsd: number; maxUsd: number | null; overTeam: boolean; overTeammates: string[] };
}

/** One entry of a transcript as the page shows it: tool calls fold open, thinking stays folded. */
export type TranscriptEntry =
  | { kind: 'header'; text: string }
  | { kind: 'prompt'; text: string }
  | { kind: 'text'; text: string }
  | { kind: 'thinking'; words: number | null }
  | { kind: 'tool'; id: string; name: string; summary: string; input: string; result: string | null; isError: boolean }
  | { kind: 'note'; text: string; tone: 'muted' | 'warn' | 'bad' | 'ok' };

export interface WireTranscript {
  agent: string;
  /** The session file's name (no folder), or null when the agent has none. */
  session: string | null;
  title: string;
  entries: TranscriptEntry[];
}

export interface WireTaskDetail {
  task: {
    id: string;
    subject: string;
    description: string;
    status: WireTaskStatus;
    owner: string | null;
    blockedBy: string[];
    attempts: number;
    notes: { ts: string; by: string; text: string }[];
    result: { summary: string; error: string | null } | null;
    merge: string | null;
    createdAt: string;
    updatedAt: string;
  };
  /** `integration...teamd/<id>` (stat and patch), or why there is none. */
  diff: { ok: true; text: string } | { ok: false; error: string };
  transcript: WireTranscript | null;
}

/** The answer to a POST: what happened, in words for the page's status line. */
export type ActionResult = { ok: true; message: string } | { ok: false; error: string };
