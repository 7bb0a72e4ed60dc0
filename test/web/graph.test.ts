/** The marks on the drawn graph (critical path, cycles, dangling blockers) and the page's layered layout. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { taskDepths } from '../../src/dashboard/task-graph.js';
import type { TaskNode } from '../../src/dashboard/types.js';
import type { TaskStatus } from '../../src/store/types.js';
import { criticalPath, cycleMembers, wireTasks } from '../../src/web/graph.js';
import { layoutGraph, NODE_H, NODE_W } from '../../web/layout.js';

function nodes(spec: { id: string; blockedBy: string[]; status?: TaskStatus }[]): TaskNode[] {
  const depths = taskDepths(spec);
  return spec.map((t) => ({ id: t.id, subject: t.id, status: t.status ?? 'pending', owner: null, blockedBy: t.blockedBy, waitingFor: [], ready: false, merge: null, depth: depths.get(t.id) ?? null }));
}

/** A random DAG: task i may be blocked only by tasks before it. */
const dagArb = fc.integer({ min: 1, max: 30 }).chain((n) =>
  fc.tuple(
    ...Array.from({ length: n }, (_, i) =>
      fc.record({
        blockers: fc.uniqueArray(fc.integer({ min: 0, max: Math.max(0, i - 1) }), { maxLength: i ? 3 : 0 }),
        status: fc.constantFrom<TaskStatus>('pending', 'in_progress', 'completed', 'failed'),
      }),
    ),
  ).map((rows) => rows.map((r, i) => ({ id: `t${i}`, blockedBy: i ? r.blockers.map((b) => `t${b}`) : [], status: r.status }))),
);

/** The longest chain of unfinished tasks by brute force (memoised DFS; graphs here are small). */
function longest(spec: { id: string; blockedBy: string[]; status: TaskStatus }[]): number {
  const byId = new Map(spec.map((t) => [t.id, t]));
  const memo = new Map<string, number>();
  const len = (id: string): number => {
    if (memo.has(id)) return memo.get(id)!;
    const t = byId.get(id)!;
    const open = t.status !== 'completed' && t.status !== 'cancelled';
    const v = open ? 1 + Math.max(0, ...t.blockedBy.filter((b) => { const s = byId.get(b)!.status; return s !== 'completed' && s !== 'cancelled'; }).map(len)) : 0;
    memo.set(id, v);
    return v;
  };
  return Math.max(0, ...spec.map((t) => len(t.id)));
}

describe('critical path', () => {
  it('is a chain of unfinished tasks, each blocked by the one before, as long as the longest (generated)', () => {
    fc.assert(
      fc.property(dagArb, (spec) => {
        const path = criticalPath(nodes(spec));
        const byId = new Map(spec.map((t) => [t.id, t]));
        for (const [i, id] of path.entries()) {
          expect(['completed', 'cancelled']).not.toContain(byId.get(id)!.status);
          if (i) expect(byId.get(id)!.blockedBy).toContain(path[i - 1]);
        }
        expect(path.length).toBe(longest(spec));
      }),
      { numRuns: 300 },
    );
  });

  it('skips finished work and cycles', () => {
    const g = nodes([
      { id: 'a', blockedBy: [], status: 'completed' },
      { id: 'b', blockedBy: ['a'] },
      { id: 'c', blockedBy: ['b'] },
      { id: 'x', blockedBy: ['y'] },
      { id: 'y', blockedBy: ['x'] },
    ]);
    expect(criticalPath(g)).toEqual(['b', 'c']);
    expect([...cycleMembers(g)].sort()).toEqual(['x', 'y']);
  });
});

describe('wire tasks', () => {
  it('mark dangling blockers, cycle members (a self-block too) and the critical path', () => {
    const w = wireTasks(nodes([{ id: 'a', blockedBy: ['ghost'] }, { id: 's', blockedBy: ['s'] }, { id: 'b', blockedBy: ['a'] }]));
    const by = new Map(w.map((t) => [t.id, t]));
    expect(by.get('a')).toMatchObject({ dangling: ['ghost'], inCycle: false });
    expect(by.get('s')).toMatchObject({ inCycle: true, critical: false });
    expect(by.get('b')!.critical).toBe(true);
  });
});

describe('layout', () => {
  const overlap = (a: { x: number; y: number }, b: { x: number; y: number }): boolean =>
    Math.abs(a.x - b.x) < NODE_W && Math.abs(a.y - b.y) < NODE_H;

  it('places every task once, inside the drawing, without overlaps, one edge per known blocker (generated)', () => {
    fc.assert(
      fc.property(dagArb, (spec) => {
        const g = nodes(spec);
        const l = layoutGraph(g);
        expect(l.nodes.map((n) => n.id).sort()).toEqual(spec.map((t) => t.id).sort());
        for (const n of l.nodes) {
          expect(n.x + NODE_W).toBeLessThanOrEqual(l.width);
          expect(n.y + NODE_H).toBeLessThanOrEqual(l.height);
        }
        for (const [i, a] of l.nodes.entries()) for (const b of l.nodes.slice(i + 1)) expect(overlap(a, b)).toBe(false);
        expect(l.edges.length).toBe(spec.reduce((s, t) => s + new Set(t.blockedBy).size, 0));
        const layer = new Map(l.nodes.map((n) => [n.id, n.layer]));
        for (const t of spec) for (const b of t.blockedBy) expect(layer.get(b)!).toBeLessThan(layer.get(t.id)!);
      }),
      { numRuns: 150 },
    );
  });

  it('puts cycles in a layer of their own and lays out 1,000 tasks fast', () => {
    const l = layoutGraph(nodes([{ id: 'a', blockedBy: [] }, { id: 'x', blockedBy: ['y'] }, { id: 'y', blockedBy: ['x', 'a'] }]));
    const layer = new Map(l.nodes.map((n) => [n.id, n.layer]));
    expect(layer.get('x')).toBe(layer.get('y'));
    expect(layer.get('x')).toBeGreaterThan(layer.get('a')!);
    const big = nodes(Array.from({ length: 1000 }, (_, i) => ({ id: `t${i}`, blockedBy: i ? [`t${Math.floor(i / 2)}`, `t${i - 1}`] : [] })));
    const began = performance.now();
    expect(layoutGraph(big).nodes).toHaveLength(1000);
    expect(performance.now() - began).toBeLessThan(2_000);
  });
});
