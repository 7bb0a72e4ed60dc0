import type { TeamConfig } from '../config/schema.js';
import { findStalls, lastProgressTimes, type Stall } from '../notify/stall.js';
import { decideBudget } from '../observe/budget.js';
import {
  costReport,
  type CostReport,
  type TokenCounts,
  type TranscriptSpendReader,
} from '../observe/cost.js';
import { readTeamStatus, type TeamStatus } from '../observe/status.js';
import { TaskStore } from '../store/tasks/index.js';
import type { BudgetState } from '../observe/budget.js';
import { readAgentStatuses } from '../teammate/status-file.js';
import { EventFeed } from './event-feed.js';
import { keptBoard } from './kept-board.js';
import { mailboxViews } from './kept-mail.js';
import { taskDepths } from './task-graph.js';
import type { DashboardState, MailboxView, TaskNode, TeammateView } from './types.js';

export interface ReadStateOptions {
  now?: number;
  /** Keeps transcript reading incremental across refreshes. */
  reader?: TranscriptSpendReader;
  /** How many events the state keeps (default 50), when no `feed` is given. */
  eventsKept?: number;
  /** The board, kept current by the caller (see source.ts); without it every task file is read. */
  tasks?: TaskStore;
  /** The board's change count (live-board.ts): the same `tasks` at the same count gives the same nodes, not built again. */
  tasksGeneration?: number;
  /** Keeps event reading incremental across refreshes; events it brings after its first read are `fresh`. */
  feed?: EventFeed;
  /** The mail panel, kept by the caller while `.mailboxes/` is unchanged (kept-mail.ts); without it the inboxes are read. */
  mail?: MailboxView[];
}

/** Prompt tokens (fresh and cached) and output tokens: what a person means by "tokens in / out". */
const promptAndOutput = (t: TokenCounts): { input: number; output: number } => ({
  input: t.input + t.cacheRead + t.cacheWrite,
  output: t.output,
});

function teammateViews(
  status: TeamStatus,
  stalls: Stall[],
  cost: CostReport,
  budget: BudgetState,
): TeammateView[] {
  return status.teammates.map((t) => {
    const spent = cost.rows.find((r) => r.key === t.name);
    const stall = stalls.find((s) => s.agent === t.name)?.reason ?? null;
    const progressStall = t.state === 'working' && stall === 'no_progress';
    return {
      name: t.name,
      look: progressStall ? 'stalled' : t.state,
      task: t.task,
      heartbeatAgeMs: t.heartbeatAgeMs,
      runs: spent?.runs ?? null,
      tokens: promptAndOutput(spent?.tokens ?? t.tokens),
      costUsd: spent?.costUsd ?? t.costUsd,
      overBudget: budget.overTeammates.includes(t.name),
      stall: t.state === 'stalled' ? 'no_heartbeat' : progressStall ? 'no_progress' : null,
    };
  });
}

/** The nodes last built per board and its generation: at 10,000 tasks each build is 10,000 objects, a sort and the graph's depths. */
const keptNodes = new WeakMap<TaskStore, { generation: number; nodes: TaskNode[] }>();

function keptTaskNodes(store: TaskStore, generation: number | undefined): TaskNode[] {
  if (generation === undefined) return taskNodes(store);
  const kept = keptNodes.get(store);
  if (kept?.generation === generation) return kept.nodes;
  const nodes = taskNodes(store);
  keptNodes.set(store, { generation, nodes });
  return nodes;
}

function taskNodes(store: TaskStore): TaskNode[] {
  const tasks = store.list();
  const depths = taskDepths(tasks);
  return tasks.map((t) => ({
    id: t.id,
    subject: t.subject,
    status: t.status,
    owner: t.owner,
    blockedBy: t.blockedBy,
    waitingFor: store.blockers(t.id),
    ready: store.isReady(t.id),
    merge: (t.metadata.merge as { state?: string } | undefined)?.state ?? null,
    depth: depths.get(t.id) ?? null,
  }));
}

/** Everything `teamd top` shows, read from the files of `repoRoot`. */
export async function readDashboardState(
  repoRoot: string,
  config: TeamConfig,
  options: ReadStateOptions = {},
): Promise<DashboardState> {
  const now = options.now ?? Date.now();
  const board = options.tasks ?? (await TaskStore.open(repoRoot, { normalise: false }));
  // A kept board at the same generation: its problems, blockers and readiness as last time (kept-board.ts).
  const view = options.tasks && options.tasksGeneration !== undefined ? keptBoard(board, options.tasksGeneration) : board;
  const status = await readTeamStatus(repoRoot, config, now, view, { inboxesAndProblems: false, taskLines: false });
  const feed = options.feed ?? new EventFeed(repoRoot, options.eventsKept ?? 50);
  const fresh = feed.poll();
  if (!options.feed) feed.close();
  const events = feed.recent;
  const statuses = readAgentStatuses(repoRoot);
  // The cost report refreshes the reader first: its listing of the transcripts gives the newest writes.
  const cost = await costReport(repoRoot, 'teammate', { prices: config.prices, reader: options.reader });
  const reader = options.reader;
  const progress = lastProgressTimes(
    repoRoot,
    statuses.map((s) => s.name),
    events,
    reader && ((agent) => reader.newestWrite(agent)),
  );
  const stalls = findStalls(statuses, progress, config.stallAfterMs, now);
  const budget = decideBudget(Object.fromEntries(cost.rows.map((r) => [r.key, r.costUsd])), config);
  return {
    now,
    lead: status.lead,
    teammates: teammateViews(status, stalls, cost, budget),
    tasks: keptTaskNodes(board, options.tasks ? options.tasksGeneration : undefined),
    taskCounts: status.tasks.counts,
    events: events.slice(-(options.eventsKept ?? 50)),
    eventCount: feed.count,
    fresh,
    mail: options.mail ?? (await mailboxViews(repoRoot, config)),
    cron: status.cron,
    merges: status.merges,
    approvals: status.approvals,
    cost,
    budget,
    finished: !status.lead.running && feed.ended,
  };
}
