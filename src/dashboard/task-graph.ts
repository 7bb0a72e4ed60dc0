/**
 * The task dependency graph drawn in text, one layer per dependency depth:
 * layer 0 holds tasks with no dependencies, layer n tasks whose deepest
 * dependency is in layer n-1. Finished tasks of a layer share one line; each
 * running, pending or failed task gets its own, with what blocks it.
 */
import type { TaskStatus } from '../store/types.js';
import type { Line, Segment, TaskNode, Tone } from './types.js';

/** Depth of every task by Kahn's algorithm (no recursion, so long chains are fine); null for tasks in or behind a cycle. */
export function taskDepths(
  tasks: readonly { id: string; blockedBy: readonly string[] }[],
): Map<string, number | null> {
  const known = new Set(tasks.map((t) => t.id));
  const dependents = new Map<string, string[]>();
  const missing = new Map<string, number>();
  for (const t of tasks) {
    const deps = [...new Set(t.blockedBy.filter((b) => known.has(b)))];
    missing.set(t.id, deps.length);
    for (const d of deps) dependents.set(d, [...(dependents.get(d) ?? []), t.id]);
  }
  const depth = new Map<string, number | null>(tasks.map((t) => [t.id, null]));
  const queue = tasks.filter((t) => missing.get(t.id) === 0).map((t) => t.id);
  for (const id of queue) depth.set(id, 0);
  for (let i = 0; i < queue.length; i++) {
    const id = queue[i]!;
    for (const next of dependents.get(id) ?? []) {
      depth.set(next, Math.max(depth.get(next) ?? 0, depth.get(id)! + 1));
      missing.set(next, missing.get(next)! - 1);
      if (missing.get(next) === 0) queue.push(next);
    }
  }
  for (const [id, left] of missing) if (left > 0) depth.set(id, null);
  return depth;
}

export const TASK_GLYPH: Record<TaskStatus, string> = {
  completed: '✔',
  in_progress: '●',
  pending: '○',
  failed: '✘',
  cancelled: '–',
};

export const TASK_TONE: Record<TaskStatus, Tone> = {
  completed: 'ok',
  in_progress: 'busy',
  pending: 'plain',
  failed: 'bad',
  cancelled: 'muted',
};

const BLOCKER_NOTE: Partial<Record<TaskStatus, string>> = {
  in_progress: ' (running)',
  failed: ' (failed)',
  cancelled: ' (cancelled)',
};

const isDone = (t: TaskNode): boolean => t.status === 'completed' || t.status === 'cancelled';
const label = (depth: number | null): string => (depth === null ? '⟳' : `L${depth}`).padEnd(3);

/** What one active task line says after its id. */
function detail(t: TaskNode, statusOf: (id: string) => TaskStatus | undefined): Segment[] {
  if (t.status === 'in_progress')
    return [{ text: `${t.owner ?? '?'}${t.merge ? ` · merge ${t.merge}` : ''}`, tone: 'busy' }];
  if (t.status === 'failed') return [{ text: 'failed', tone: 'bad' }];
  if (t.depth === null) return [{ text: `in a dependency cycle: ${t.blockedBy.join(', ')}`, tone: 'bad' }];
  if (t.ready) return [{ text: t.owner ? `ready for ${t.owner}` : 'ready', tone: 'ok' }];
  const blockers = t.waitingFor.map((id) => `${id}${BLOCKER_NOTE[statusOf(id) ?? 'pending'] ?? ''}`);
  const dead = t.waitingFor.some((id) => statusOf(id) === 'failed' || statusOf(id) === 'cancelled');
  return [{ text: `blocked by ${blockers.join(', ')}`, tone: dead ? 'bad' : 'warn' }];
}

function doneLine(depth: number | null, done: TaskNode[], width: number): Line {
  const parts: Segment[] = [{ text: label(depth), tone: 'muted' }];
  let used = 4;
  for (const [i, t] of done.entries()) {
    const piece = ` ${TASK_GLYPH[t.status]} ${t.id}`;
    const rest = done.length - i;
    if (used + piece.length > width - 8 && rest > 1) {
      parts.push({ text: ` +${rest} done`, tone: 'muted' });
      break;
    }
    parts.push({ text: piece, tone: TASK_TONE[t.status] });
    used += piece.length;
  }
  return parts;
}

function activeLine(t: TaskNode, idWidth: number, statusOf: (id: string) => TaskStatus | undefined): Line {
  return [
    { text: label(t.depth), tone: 'muted' },
    { text: ` ${TASK_GLYPH[t.status]} `, tone: TASK_TONE[t.status] },
    { text: t.id.padEnd(idWidth), bold: t.status === 'in_progress' },
    { text: '  ' },
    ...detail(t, statusOf),
  ];
}

/** `room` of the lines, in their order: active tasks first, then the shallowest finished layers. */
function fitLines(lines: readonly { line: Line; done: boolean }[], room: number): Line[] {
  const active = lines.flatMap((l, i) => (l.done ? [] : [i]));
  const finished = lines.flatMap((l, i) => (l.done ? [i] : []));
  const keep = new Set([...active.slice(0, room), ...finished.slice(0, Math.max(0, room - active.length))]);
  return lines.filter((_, i) => keep.has(i)).map((l) => l.line);
}

/**
 * The graph as at most `height` lines of at most `width` columns. When it
 * does not fit, finished layers go first, then the deepest active tasks, with
 * a last line saying how many were left out.
 */
export function taskGraphLines(tasks: readonly TaskNode[], height: number, width: number): Line[] {
  if (height <= 0) return [];
  // Drawn twice a render (the layout asks how many lines it wants) and every refresh: the same nodes draw the same lines.
  const key = `${height}x${width}`;
  const sizes = drawn.get(tasks) ?? new Map<string, Line[]>();
  const kept = sizes.get(key);
  if (kept) return kept;
  const lines = drawGraph(tasks, height, width);
  if (sizes.size >= 4) sizes.clear(); // resizes: only the last few sizes are kept
  drawn.set(tasks, sizes.set(key, lines));
  return lines;
}

const drawn = new WeakMap<readonly TaskNode[], Map<string, Line[]>>();

function drawGraph(tasks: readonly TaskNode[], height: number, width: number): Line[] {
  if (!tasks.length) return [[{ text: 'no tasks yet (teamd task add …)', tone: 'muted' }]];
  const byId = new Map(tasks.map((t) => [t.id, t]));
  const statusOf = (id: string): TaskStatus | undefined => byId.get(id)?.status;
  const depths = [...new Set(tasks.map((t) => t.depth))].sort((a, b) => (a ?? Infinity) - (b ?? Infinity));
  const idWidth = Math.min(24, Math.max(...tasks.filter((t) => !isDone(t)).map((t) => t.id.length), 4));
  const lines: { line: Line; done: boolean }[] = [];
  for (const d of depths) {
    const layer = tasks.filter((t) => t.depth === d);
    const finished = layer.filter(isDone);
    if (finished.length) lines.push({ line: doneLine(d, finished, width), done: true });
    for (const t of layer.filter((x) => !isDone(x)))
      lines.push({ line: activeLine(t, idWidth, statusOf), done: false });
  }
  if (lines.length <= height) return lines.map((l) => l.line);
  return [
    ...fitLines(lines, height - 1),
    [{ text: `… ${lines.length - height + 1} more (teamd task ls)`, tone: 'muted' }],
  ];
}
