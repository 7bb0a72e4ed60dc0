/**
 * The task graph as SVG: one box per task coloured by status, an edge from
 * each blocker to what it blocks, the critical path drawn thick, tasks on a
 * cycle dashed red with ⟳, a dangling blocker as a red stub naming the
 * missing id. Every box is a link (Tab reaches it, Enter opens the task).
 */
import { useMemo } from 'preact/hooks';
import type { WireTask } from '../src/web/wire.js';
import { STATUS_LABEL } from './format.js';
import { layoutGraph, NODE_H, NODE_W, type PlacedNode } from './layout.js';

const short = (s: string, n: number): string => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

function Node({ node, task }: { node: PlacedNode; task: WireTask }) {
  const classes = ['node', `st-${task.status}`, task.critical ? 'critical' : '', task.inCycle ? 'cycle' : ''].join(' ');
  const label = `${task.id}: ${task.subject} (${STATUS_LABEL[task.status] ?? task.status}${task.critical ? ', critical path' : ''}${task.inCycle ? ', in a cycle' : ''})`;
  return (
    <a href={`#/task/${encodeURIComponent(task.id)}`} class={classes} data-task={task.id} aria-label={label}>
      <title>{label}</title>
      <rect x={node.x} y={node.y} width={NODE_W} height={NODE_H} rx={6} />
      <text x={node.x + 8} y={node.y + 16} class="node-id">
        {task.inCycle ? '⟳ ' : ''}
        {short(task.id, 20)}
      </text>
      <text x={node.x + 8} y={node.y + 32} class="node-subject">
        {short(task.subject, 22)}
      </text>
      {task.dangling.map((d, i) => (
        <g class="dangling" key={d}>
          <line x1={node.x - 50} y1={node.y + 10 + i * 12} x2={node.x} y2={node.y + 10 + i * 12} />
          <text x={node.x - 50} y={node.y + 8 + i * 12}>
            {`✘ ${short(d, 8)}`}
          </text>
        </g>
      ))}
    </a>
  );
}

export function TaskGraph({ tasks }: { tasks: WireTask[] }) {
  const layout = useMemo(() => layoutGraph(tasks), [tasks]);
  const byId = useMemo(() => new Map(tasks.map((t) => [t.id, t])), [tasks]);
  if (!tasks.length) return <p class="muted">no tasks yet (teamd task add …)</p>;
  const onPath = (from: string, to: string): boolean => Boolean(byId.get(from)?.critical && byId.get(to)?.critical);
  // critical edges last, so a long edge crossing the same space never covers them
  const edges = [...layout.edges].sort((a, b) => Number(onPath(a.from, a.to)) - Number(onPath(b.from, b.to)));
  return (
    <div class="graph-scroll" id="graph" tabIndex={-1}>
      <svg width={layout.width} height={layout.height} viewBox={`0 0 ${layout.width} ${layout.height}`} role="img" aria-label={`task graph, ${tasks.length} tasks`}>
        <g class="edges">
          {edges.map((e) => (
            <path key={`${e.from}>${e.to}`} d={e.d} class={onPath(e.from, e.to) ? 'edge critical' : byId.get(e.to)?.inCycle && byId.get(e.from)?.inCycle ? 'edge cycle' : 'edge'} />
          ))}
        </g>
        <g class="nodes">
          {layout.nodes.map((n) => (
            <Node key={n.id} node={n} task={byId.get(n.id)!} />
          ))}
        </g>
      </svg>
    </div>
  );
}

export function GraphLegend({ tasks }: { tasks: WireTask[] }) {
  const cycles = tasks.filter((t) => t.inCycle).length;
  const dangling = tasks.filter((t) => t.dangling.length).length;
  const critical = tasks.filter((t) => t.critical).length;
  return (
    <p class="legend">
      {(['pending', 'in_progress', 'completed', 'failed', 'cancelled'] as const).map((s) => (
        <span key={s} class={`chip st-${s}`}>{`${STATUS_LABEL[s]} ${tasks.filter((t) => t.status === s).length}`}</span>
      ))}
      <span class="chip critical">{`critical path ${critical}`}</span>
      {cycles > 0 && <span class="chip cycle">{`⟳ in a cycle ${cycles}`}</span>}
      {dangling > 0 && <span class="chip dangling-chip">{`✘ dangling blockers ${dangling}`}</span>}
    </p>
  );
}
