/**
 * What the page marks on the task graph, computed once on the server from
 * the board `teamd top` reads: tasks on a dependency cycle, blockers that
 * name no task (dangling), and the critical path (the longest chain of
 * unfinished tasks, which bounds how soon the team can be done).
 */
import { findCycles } from '../store/tasks/index.js';
import type { TaskNode } from '../dashboard/types.js';
import type { WireTask } from './wire.js';

const unfinished = (t: TaskNode): boolean => t.status !== 'completed' && t.status !== 'cancelled';

/** Ids on a cycle (a task blocked by itself included). */
export function cycleMembers(tasks: readonly TaskNode[]): Set<string> {
  const graph = new Map(tasks.map((t) => [t.id, t]));
  return new Set(findCycles(graph).flat());
}

/**
 * The longest chain of unfinished, acyclic tasks (by count), first blocker
 * first. Depths come from Kahn's order (TaskNode.depth), so tasks are visited
 * in dependency order without recursion.
 */
export function criticalPath(tasks: readonly TaskNode[]): string[] {
  const byId = new Map(tasks.map((t) => [t.id, t]));
  const order = tasks.filter((t) => t.depth !== null && unfinished(t)).sort((a, b) => a.depth! - b.depth!);
  const length = new Map<string, number>();
  const via = new Map<string, string>();
  for (const t of order) {
    let best = 0;
    for (const b of t.blockedBy) {
      const l = length.get(b);
      if (l !== undefined && l > best && byId.has(b)) {
        best = l;
        via.set(t.id, b);
      }
    }
    length.set(t.id, best + 1);
  }
  let end: string | null = null;
  for (const [id, l] of length) if (end === null || l > length.get(end)!) end = id;
  const path: string[] = [];
  for (let at = end; at !== null; at = via.get(at) ?? null) path.unshift(at);
  return path;
}

/** The board as the page draws it. */
export function wireTasks(tasks: readonly TaskNode[]): WireTask[] {
  const known = new Set(tasks.map((t) => t.id));
  const cycles = cycleMembers(tasks);
  const critical = new Set(criticalPath(tasks));
  return tasks.map(({ waitingFor: _, ...t }) => ({
    ...t,
    dangling: t.blockedBy.filter((b) => !known.has(b)),
    inCycle: cycles.has(t.id),
    critical: critical.has(t.id),
  }));
}
