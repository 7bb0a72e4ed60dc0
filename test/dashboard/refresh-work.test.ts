/**
 * `teamd top` draws its own task graph (state.ts's nodes, kept per board
 * generation), so its refresh asks `readTeamStatus` for the task counts only:
 * the status section's line per task (10,000 objects a refresh at 10,000
 * tasks, garbage at once) and the board's problems were built for nothing
 * (issue 24). The counts are the full section's.
 */
import fc from 'fast-check';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { TeamConfigSchema } from '../../src/config/schema.js';
import { LiveBoard } from '../../src/dashboard/live-board.js';
import { readDashboardState } from '../../src/dashboard/state.js';
import { readTeamStatus } from '../../src/observe/status.js';
import { TaskStore } from '../../src/store/tasks/index.js';
import { tempRepo } from '../store/temp-repo.js';

const config = TeamConfigSchema.parse({});
let repo: Awaited<ReturnType<typeof tempRepo>>;
beforeEach(async () => void (repo = await tempRepo('teamd-refresh-work-')));
afterEach(async () => repo.cleanup());

async function boardOf(n: number): Promise<TaskStore> {
  const store = await TaskStore.open(repo.root);
  for (let i = 0; i < n; i++) await store.create({ id: `t${i}`, subject: `task ${i}`, blockedBy: i ? [`t${i - 1}`] : [] });
  return store;
}

it("a refresh asks the board each task's blockers once (for the graph's nodes), not again for status lines top never shows", async () => {
  await boardOf(30);
  const board = new LiveBoard(repo.root);
  const tasks = await board.current(true);
  const blockers = vi.spyOn(tasks, 'blockers');
  const problems = vi.spyOn(tasks, 'problems');
  const state = await readDashboardState(repo.root, config, { tasks, tasksGeneration: board.generation });
  expect(state.tasks).toHaveLength(30);
  expect(blockers).toHaveBeenCalledTimes(30);
  expect(problems).not.toHaveBeenCalled();
  expect(state.taskCounts.pending).toBe(30);
});

it('the counts-only section gives the counts of the full one, no lines and no problems', async () => {
  const template = (await boardOf(1)).list()[0]!;
  const statuses = ['pending', 'in_progress', 'completed', 'failed', 'cancelled'] as const;
  await fc.assert(
    fc.asyncProperty(fc.array(fc.constantFrom(...statuses), { maxLength: 12 }), async (picked) => {
      const board = TaskStore.fromSnapshot(repo.root, picked.map((status, i) => ({ ...template, id: `s${i}`, blockedBy: [], status })));
      const full = await readTeamStatus(repo.root, config, Date.now(), board);
      const counts = await readTeamStatus(repo.root, config, Date.now(), board, { taskLines: false });
      expect(counts.tasks).toEqual({ counts: full.tasks.counts, list: [], problems: [] });
      expect(full.tasks.list).toHaveLength(picked.length);
    }),
    { numRuns: 30 },
  );
});

