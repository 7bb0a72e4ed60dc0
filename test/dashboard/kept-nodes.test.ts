/**
 * An idle `teamd top` at 10,000 tasks built 10,000 task nodes, a sort and the
 * graph's depths every refresh, and drew the graph twice a render (issue 24):
 * the nodes are kept per board and its change count (live-board.ts), the
 * graph's lines per nodes and size. Kept must mean unchanged: any change to
 * the board (a task written, added or removed) shows at the next refresh,
 * and kept lines are what a fresh draw gives.
 */
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { TeamConfigSchema } from '../../src/config/schema.js';
import { LiveBoard } from '../../src/dashboard/live-board.js';
import { readDashboardState } from '../../src/dashboard/state.js';
import { taskGraphLines } from '../../src/dashboard/task-graph.js';
import type { TaskNode } from '../../src/dashboard/types.js';
import { TaskStore } from '../../src/store/tasks/index.js';
import { tempRepo } from '../store/temp-repo.js';

let repo: Awaited<ReturnType<typeof tempRepo>>;
beforeEach(async () => void (repo = await tempRepo('teamd-kept-nodes-')));
afterEach(async () => repo.cleanup());
const tasksDir = (): string => join(repo.root, '.tasks');

async function stateOf(board: LiveBoard) {
  const tasks = await board.current(true);
  return readDashboardState(repo.root, TeamConfigSchema.parse({}), { tasks, tasksGeneration: board.generation });
}

it('the same board gives the same nodes; a task changed, added or removed gives new ones', async () => {
  const store = await TaskStore.open(repo.root);
  await store.create({ id: 'a', subject: 'first' });
  await store.create({ id: 'b', subject: 'second', blockedBy: ['a'] });
  const board = new LiveBoard(repo.root);
  const first = (await stateOf(board)).tasks;
  expect((await stateOf(board)).tasks).toBe(first);
  await store.claim('a', 'w1', 60_000);
  await store.complete('a', 'w1', 'done');
  board.changed(tasksDir(), 'a.json');
  const after = (await stateOf(board)).tasks;
  expect(after).not.toBe(first);
  expect(after.find((t) => t.id === 'a')?.status).toBe('completed');
  expect(after.find((t) => t.id === 'b')?.ready).toBe(true);
  await store.create({ id: 'c', subject: 'third' });
  board.changed(tasksDir(), 'c.json');
  expect((await stateOf(board)).tasks.map((t) => t.id)).toEqual(['a', 'b', 'c']);
  rmSync(join(tasksDir(), 'b.json'));
  board.changed(tasksDir(), 'b.json');
  expect((await stateOf(board)).tasks.map((t) => t.id)).toEqual(['a', 'c']);
  // A hint naming no task file changes nothing: the nodes stay.
  const kept = (await stateOf(board)).tasks;
  writeFileSync(join(tasksDir(), 'notes.txt'), 'x');
  board.changed(tasksDir(), 'notes.txt');
  expect((await stateOf(board)).tasks).toBe(kept);
});

const statuses = ['pending', 'in_progress', 'completed', 'failed', 'cancelled'] as const;
const nodeArb = (ids: string[]) =>
  fc.record({
    status: fc.constantFrom(...statuses),
    owner: fc.option(fc.constantFrom('w1', 'w2'), { nil: null }),
    blockedBy: fc.subarray(ids, { maxLength: 3 }),
    ready: fc.boolean(),
    depth: fc.option(fc.nat(4), { nil: null }),
  });

it('kept graph lines are what a fresh draw of the same nodes gives, at every size asked', () => {
  const ids = Array.from({ length: 12 }, (_, i) => `t${i}`);
  fc.assert(
    fc.property(
      fc.array(nodeArb(ids), { minLength: 0, maxLength: 12 }),
      fc.array(fc.tuple(fc.integer({ min: -1, max: 30 }), fc.integer({ min: 40, max: 200 })), { minLength: 1, maxLength: 8 }),
      (specs, sizes) => {
        const nodes: TaskNode[] = specs.map((s, i) => ({ id: ids[i]!, subject: ids[i]!, merge: null, waitingFor: s.blockedBy, ...s }));
        for (const [height, width] of sizes)
          expect(taskGraphLines(nodes, height, width)).toEqual(taskGraphLines([...nodes], height, width));
      },
    ),
    { numRuns: 100 },
  );
});
