/**
 * A cancel (the real CLI, another process) racing a merge, many times at
 * random offsets: exactly one wins. Either the task is cancelled and nothing
 * of it is on the integration branch, or it was merged and completed first
 * and the cancel is refused — never a merged, cancelled task.
 */
import { afterEach, beforeEach, expect, it } from 'vitest';
import { MergeQueue } from '../../src/git/merge-queue.js';
import { taskRefGuard } from '../../src/lead/merge-outcomes.js';
import { TaskStore } from '../../src/store/tasks/index.js';
import { spawnCli } from '../e2e/support/cli.js';
import { finishedTask } from '../git/finished-task.js';
import { makeRepo, type TempRepo } from '../git/temp-repo.js';
import { budget, SEED, seededRandom, sized } from './support/scale.js';

const ROUNDS = sized(40, 4);
let repo: TempRepo;
let queue: MergeQueue;
beforeEach(async () => {
  repo = makeRepo();
});
afterEach(async () => {
  await queue?.close();
  repo.cleanup();
});

it(`cancel vs merge, ${ROUNDS} rounds at random offsets: one winner each time (seed ${SEED})`, async () => {
  const tasks = await TaskStore.open(repo.root);
  const opened = await MergeQueue.open({ repoRoot: repo.root, verify: 'sleep 0.3', guardRefMove: taskRefGuard(tasks) });
  if (!opened.ok) throw new Error(opened.error);
  queue = opened.value;
  const random = seededRandom();
  const wins = { cancel: 0, merge: 0 };
  for (let i = 1; i <= ROUNDS; i++) {
    const id = `r${i}`;
    await finishedTask(repo, tasks, queue, id, `${id}.txt`);
    const delay = Math.floor(random() * 400);
    const cancel = new Promise<{ code: number | null; out: string }>((resolve) =>
      setTimeout(() => {
        const run = spawnCli(['task', 'cancel', id, '--dir', repo.root]);
        void run.exited.then((code) => resolve({ code, out: run.output() }));
      }, delay),
    );
    // The CLI takes a while to start: sometimes it lands before the merge starts, during verify, or after.
    const merging = new Promise((r) => setTimeout(r, Math.floor(random() * 800))).then(() => queue.drain());
    const [{ code, out }, results] = await Promise.all([cancel, merging]);
    await tasks.refresh(id);
    const status = tasks.get(id)?.status;
    const merged = repo.git(['ls-tree', '-r', '--name-only', 'teamd/integration']).split('\n').includes(`${id}.txt`);
    const entry = queue.entries().find((e) => e.taskId === id)?.state;
    if (code === 0) {
      expect({ status, merged, entry, results: results.map((r) => r.type) }).toEqual({ status: 'cancelled', merged: false, entry: 'cancelled', results: ['merge_cancelled'] });
      wins.cancel++;
    } else {
      expect(out).toContain('already completed');
      expect({ status, merged, entry }).toEqual({ status: 'completed', merged: true, entry: 'merged' });
      wins.merge++;
    }
  }
  expect(wins.cancel + wins.merge).toBe(ROUNDS);
  if (process.env.CANCEL_RACE_REPORT) console.log(wins);
}, budget(600_000, 60_000));
