import { describe, expect, it } from 'vitest';
import { taskDepths, taskGraphLines } from '../../src/dashboard/task-graph.js';
import { makeTheme, noColorRequested } from '../../src/dashboard/theme.js';
import type { Line, TaskNode } from '../../src/dashboard/types.js';

const node = (
  id: string,
  status: TaskNode['status'],
  blockedBy: string[] = [],
  extra: Partial<TaskNode> = {},
): TaskNode => ({
  id,
  subject: id,
  status,
  owner: null,
  blockedBy,
  waitingFor: [],
  ready: false,
  merge: null,
  depth: null,
  ...extra,
});

const text = (lines: Line[]): string[] => lines.map((l) => l.map((s) => s.text).join(''));

describe('taskDepths', () => {
  it('layers by the deepest dependency; cycles and what waits on them have no depth', () => {
    const depths = taskDepths([
      { id: 'a', blockedBy: [] },
      { id: 'b', blockedBy: ['a'] },
      { id: 'c', blockedBy: ['a', 'b', 'ghost'] },
      { id: 'x', blockedBy: ['y'] },
      { id: 'y', blockedBy: ['x'] },
      { id: 'z', blockedBy: ['y', 'a'] },
      { id: 'self', blockedBy: ['self'] },
    ]);
    expect(Object.fromEntries(depths)).toEqual({ a: 0, b: 1, c: 2, x: null, y: null, z: null, self: null });
  });

  it('a 10,000-long chain without recursion', () => {
    const chain = Array.from({ length: 10_000 }, (_, i) => ({
      id: `t${i}`,
      blockedBy: i ? [`t${i - 1}`] : [],
    }));
    expect(taskDepths(chain).get('t9999')).toBe(9999);
  });
});

describe('taskGraphLines', () => {
  const tasks = [
    node('design', 'completed', [], { depth: 0 }),
    node('setup', 'cancelled', [], { depth: 0 }),
    node('parser', 'in_progress', ['design'], { depth: 1, owner: 'worker-1', merge: 'queued' }),
    node('docs', 'pending', [], { depth: 0, ready: true, owner: 'worker-2' }),
    node('tests', 'pending', ['parser', 'broken'], { depth: 2, waitingFor: ['parser', 'broken'] }),
    node('broken', 'failed', ['design'], { depth: 1 }),
    node('x', 'pending', ['y'], { depth: null, waitingFor: ['y'] }),
  ];

  it('a line per layer of finished tasks, a line per active task with what blocks it', () => {
    expect(text(taskGraphLines(tasks, 20, 80))).toEqual([
      'L0  ✔ design – setup',
      'L0  ○ docs    ready for worker-2',
      'L1  ● parser  worker-1 · merge queued',
      'L1  ✘ broken  failed',
      'L2  ○ tests   blocked by parser (running), broken (failed)',
      '⟳   ○ x       in a dependency cycle: y',
    ]);
    expect(taskGraphLines(tasks, 20, 80)[4]!.at(-1)?.tone).toBe('bad');
  });

  it('when short of room, active tasks stay and the rest is counted', () => {
    expect(text(taskGraphLines(tasks, 4, 80))).toEqual([
      'L0  ○ docs    ready for worker-2',
      'L1  ● parser  worker-1 · merge queued',
      'L1  ✘ broken  failed',
      '… 3 more (teamd task ls)',
    ]);
    expect(text(taskGraphLines([], 4, 80))).toEqual(['no tasks yet (teamd task add …)']);
  });

  it('a long finished layer is cut with a count', () => {
    const many = Array.from({ length: 30 }, (_, i) => node(`task-${i}`, 'completed', [], { depth: 0 }));
    const [only] = text(taskGraphLines(many, 5, 80));
    expect(only!.length).toBeLessThanOrEqual(80);
    expect(only).toMatch(/✔ task-0 ✔ task-1 .* \+\d+ done$/);
  });
});

describe('colours', () => {
  it('NO_COLOR (set and not empty) drops colours and dims muted text instead', () => {
    expect(noColorRequested({ NO_COLOR: '1' })).toBe(true);
    expect(noColorRequested({ NO_COLOR: '' })).toBe(false);
    expect(noColorRequested({})).toBe(false);
    expect(makeTheme(true).colour('bad')).toBeUndefined();
    expect(makeTheme(true).dim('muted')).toBe(true);
    expect(makeTheme(false).colour('bad')).toBe('red');
    expect(makeTheme(false).dim('muted')).toBe(false);
  });
});
