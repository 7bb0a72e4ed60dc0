/**
 * The page's data, made from what `teamd top` reads (DashboardState, see
 * src/dashboard/state.ts) plus the teammates' status files for turns and
 * model. No file is parsed here: this only reshapes.
 */
import type { TeamConfig } from '../config/schema.js';
import type { DashboardState } from '../dashboard/types.js';
import { lastEvents } from '../observe/event-history.js';
import { formatEvent } from '../observe/format-event.js';
import type { LoggedEvent } from '../observe/types.js';
import { hostConfigOf } from '../teammate/hosts/index.js';
import type { AgentStatus } from '../teammate/types.js';
import { wireTasks } from './graph.js';
import type { CostSeries, WireEvent, WireSnapshot, WireTeammate } from './wire.js';

const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);

/** An event `formatEvent` leaves out (routine ones) as its fields: `agent=ann state=working`. */
const fieldsLine = (fields: Record<string, unknown>): string =>
  Object.entries(fields)
    .filter(([k]) => k !== 'ts' && k !== 'type')
    .map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`)
    .join(' ');

export function wireEvent(e: LoggedEvent): WireEvent {
  const fields = e as unknown as Record<string, unknown>;
  return {
    ts: e.ts,
    type: e.type,
    agent: str(fields.agent) ?? str(fields.from),
    task: str(fields.task) ?? str(fields.taskId),
    text: formatEvent(e) ?? fieldsLine(fields),
  };
}

/** Where the config says `name` runs: its host kind (`thread`, `process`, `sandbox`), `ssh <target>` for ssh. */
export function hostLabel(config: TeamConfig, name: string): string {
  const host = hostConfigOf(config, config.teammates.find((t) => t.name === name));
  return host.kind === 'ssh' ? `ssh ${host.target}` : host.kind;
}

function teammates(state: DashboardState, statuses: readonly AgentStatus[], config: TeamConfig): WireTeammate[] {
  return state.teammates.map((t) => {
    const s = statuses.find((x) => x.name === t.name);
    return {
      name: t.name,
      look: t.look,
      task: t.task,
      heartbeatAgeMs: t.heartbeatAgeMs,
      turns: s?.turns ?? 0,
      runs: t.runs,
      tokens: t.tokens,
      costUsd: t.costUsd,
      model: s?.model ?? '',
      host: hostLabel(config, t.name),
      overBudget: t.overBudget,
    };
  });
}

export function snapshotOf(
  state: DashboardState,
  statuses: readonly AgentStatus[],
  series: { byTeammate: CostSeries[]; byModel: CostSeries[] },
  config: TeamConfig,
): WireSnapshot {
  return {
    now: state.now,
    lead: { running: state.lead.running, pid: state.lead.pid, paused: Boolean(state.lead.paused) },
    finished: state.finished,
    teammates: teammates(state, statuses, config),
    tasks: wireTasks(state.tasks),
    counts: state.taskCounts,
    approvals: state.approvals
      .filter((a) => a.status === 'pending')
      .map((a) => ({ id: a.id, agent: a.agent, kind: a.kind, task: a.task ?? null, summary: a.summary })),
    reviews: state.tasks
      .filter((t) => t.status === 'in_progress' && t.merge === 'review')
      .map((t) => ({ task: t.id, subject: t.subject, owner: t.owner })),
    mail: state.mail,
    cron: state.cron,
    merges: state.merges,
    events: state.events.map(wireEvent),
    cost: { totalUsd: state.cost.total.costUsd, ...series },
    budget: {
      spentUsd: state.budget.team.spentUsd,
      maxUsd: state.budget.team.maxBudgetUsd,
      overTeam: state.budget.team.over,
      overTeammates: state.budget.overTeammates,
    },
  };
}

export interface EventQuery {
  types?: string[];
  agent?: string;
  task?: string;
  limit: number;
}

/** The event log's newest matching events, oldest first (`teamd logs --events` reads the same way). */
export async function queryEvents(repoRoot: string, q: EventQuery): Promise<WireEvent[]> {
  const scan = q.agent || q.task ? Math.max(q.limit * 20, 2_000) : q.limit;
  const { events } = await lastEvents(repoRoot, scan, { types: q.types?.length ? q.types : undefined });
  const wire = events.map(wireEvent).filter((e) => (!q.agent || e.agent === q.agent) && (!q.task || e.task === q.task));
  return wire.slice(-q.limit);
}
