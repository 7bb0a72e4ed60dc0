/** Watching: the team at a glance (`teamd status`), and the tail of the event log (`teamd logs --events`). */
import { z } from 'zod';
import { lastEvents } from '../observe/event-history.js';
import { formatEvent } from '../observe/format-event.js';
import { readTeamStatus, type TeamStatus } from '../observe/status.js';
import { configOrDefaults, openTasks } from './stores.js';
import { defineMcpTool, ok } from './types.js';

/** What `status` answers: the board as counts (task_list has the rows), so a big board stays small here. */
const summaryOf = (s: TeamStatus) => ({
  lead: s.lead,
  teammates: s.teammates.map((t) => ({ name: t.name, state: t.state, task: t.task, costUsd: t.costUsd })),
  tasks: { ...s.tasks.counts, ready: s.tasks.list.filter((t) => t.ready).length },
  failed: s.tasks.list.filter((t) => t.status === 'failed').map((t) => ({ id: t.id, reason: t.reason })),
  merges: s.merges,
  approvalsWaiting: s.approvals.map((r) => r.id),
  inboxes: s.inboxes,
  problems: [...s.tasks.problems, ...s.problems].length,
});

export const status = defineMcpTool({
  name: 'status',
  description: 'The team at a glance: lead, teammates, task counts, failures, merges, waiting approvals, inboxes.',
  input: z.strictObject({}),
  readOnly: true,
  run: async (_input, scope) => {
    const s = await readTeamStatus(scope.repoRoot, await configOrDefaults(scope), Date.now(), await openTasks(scope));
    return ok(summaryOf(s));
  },
});

export const eventsTail = defineMcpTool({
  name: 'events_tail',
  description: 'The last events of the team log (.team/state/events.jsonl), one readable line each.',
  input: z.strictObject({
    count: z.number().int().min(1).max(500).optional(),
    types: z.array(z.string().min(1).max(64)).max(50).optional(),
    json: z.boolean().optional(),
  }),
  readOnly: true,
  run: async ({ count, types, json }, scope) => {
    const { events } = await lastEvents(scope.repoRoot, count ?? 20, types?.length ? { types } : {});
    if (json) return ok(events);
    const lines = events.flatMap((e) => {
      const text = formatEvent(e);
      return text === null ? [] : [`${e.ts} ${text}`];
    });
    return ok(lines.join('\n') || 'no events');
  },
});

export const STATUS_TOOLS = [status, eventsTail];
