import { z } from 'zod';
import type { Outcome, Task } from '../../store/types.js';
import { cycleThrough } from '../../store/tasks/graph.js';
import type { ToolContext, ToolOutput } from '../../tools/types.js';
import { teamServices } from './services.js';

/** A change to an existing task (`task_write` without a subject; the old `task_update`). */
export const ChangeSchema = z.strictObject({
  id: z.string(),
  status: z.enum(['cancelled', 'failed', 'pending']).optional(),
  owner: z.string().nullable().optional(),
  addBlockedBy: z.array(z.string()).optional(),
  reason: z.string().optional(),
});
export type Change = z.infer<typeof ChangeSchema>;

/** The change as a pure function of the freshly re-read task; the store checks the transition. */
function applyChange(task: Task, by: string, change: Change, known: (id: string) => boolean): Outcome<Task> {
  const unknown = (change.addBlockedBy ?? []).filter((id) => !known(id));
  if (unknown.length) return { ok: false, error: `unknown task id(s) to wait for: ${unknown.join(', ')}` };
  if (change.status === 'failed' && task.status === 'in_progress' && task.owner !== by) {
    return { ok: false, error: `only its owner (${task.owner}) may fail an in-progress task` };
  }
  const next: Task = { ...task, blockedBy: [...new Set([...task.blockedBy, ...(change.addBlockedBy ?? [])])] };
  if (change.owner !== undefined) next.owner = change.owner;
  if (change.status) {
    next.status = change.status;
    if (change.status !== 'pending') next.lease = null;
    if (change.status === 'failed') next.result = { summary: change.reason ?? 'failed', error: change.reason ?? 'failed' };
  }
  if (change.reason) next.notes = [...task.notes, { ts: new Date().toISOString(), by, text: change.reason }];
  return { ok: true, value: next };
}

/** Changes a task's deps, owner or status; a dependency cycle is refused before anything is written. */
export async function changeTask(input: Change, ctx: ToolContext): Promise<ToolOutput> {
  const team = teamServices(ctx);
  const { tasks } = team;
  if (input.addBlockedBy?.length) {
    const graph = new Map(tasks.list().map((t) => [t.id, t]));
    const cycle = cycleThrough(graph, input.id, input.addBlockedBy);
    if (cycle) return { content: `Task ${input.id} not changed: dependency cycle ${cycle.join(' → ')}`, isError: true };
  }
  const outcome = await tasks.update(input.id, (t) => applyChange(t, team.self, input, (id) => !!tasks.get(id)));
  if (!outcome.ok) return { content: `Task ${input.id} not changed: ${outcome.error}`, isError: true };
  const t = outcome.value;
  return {
    content: `Task ${t.id} is now ${t.status}${t.owner ? ` (owner ${t.owner})` : ''}; blocked by [${t.blockedBy.join(', ')}]`,
    summary: `task ${t.id} → ${t.status}`,
  };
}
