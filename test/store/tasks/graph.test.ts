import { describe, expect, it } from 'vitest';
import { cycleThrough, findCycles } from '../../../src/store/tasks/index.js';

const graph = (edges: Record<string, string[]>) => new Map(Object.entries(edges).map(([id, blockedBy]) => [id, { blockedBy }]));

describe('findCycles', () => {
  it('finds each circle once, including a task blocked by itself, and ignores missing blockers', () => {
    const cycles = findCycles(graph({ a: ['b'], b: ['c'], c: ['a'], d: ['d'], e: ['a', 'ghost'], f: [] }));
    expect(cycles.map((c) => [...c].sort())).toEqual(expect.arrayContaining([['a', 'b', 'c'], ['d']]));
    expect(cycles).toHaveLength(2);
  });

  it('handles a 20,000-long chain without overflowing the stack', () => {
    const edges: Record<string, string[]> = {};
    for (let i = 0; i < 20_000; i++) edges[`t${i}`] = i ? [`t${i - 1}`] : [];
    expect(findCycles(graph(edges))).toEqual([]);
    edges.t0 = ['t19999'];
    expect(findCycles(graph(edges))[0]).toHaveLength(20_000);
  });
});

describe('cycleThrough', () => {
  it('returns the path a new task would close, or null', () => {
    const g = graph({ a: ['b'], b: ['new'] });
    expect(cycleThrough(g, 'new', ['a'])).toEqual(['new', 'a', 'b', 'new']);
    expect(cycleThrough(g, 'other', ['a'])).toBeNull();
    expect(cycleThrough(g, 'x', ['x'])).toEqual(['x', 'x']);
  });
});
