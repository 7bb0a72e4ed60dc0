/**
 * Cancel wins in the merge queue: a queued entry leaves, a merge in progress
 * is aborted (its verify killed), and a cancel that lands after verify but
 * before the integration branch moves is caught by the guard under the
 * task's lock (the cancel here is the real CLI, run by the verify command).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { readMergeQueueFile, mergeQueuePath } from '../../src/git/merge-queue-file.js';
import { MergeQueue } from '../../src/git/merge-queue.js';
import type { MergeEvent, MergeQueueOptions } from '../../src/git/types.js';
import { taskRefGuard } from '../../src/lead/merge-outcomes.js';
import { TaskStore } from '../../src/store/tasks/index.js';
import { finishedTask as finishTask } from './finished-task.js';
import { makeRepo, type TempRepo } from './temp-repo.js';

const MAIN = fileURLToPath(new URL('../../src/cli/main.ts', import.meta.url));
const TSX = import.meta.resolve('tsx');

let repo: TempRepo;
let tasks: TaskStore;
let queues: MergeQueue[];
let events: MergeEvent[];
beforeEach(async () => {
  repo = makeRepo();
  tasks = await TaskStore.open(repo.root);
  queues = [];
  events = [];
});
afterEach(async () => {
  for (const q of queues) await q.close();
  repo.cleanup();
});

async function openQueue(options: Partial<MergeQueueOptions> = {}): Promise<MergeQueue> {
  const opened = await MergeQueue.open({ repoRoot: repo.root, onEvent: (e) => events.push(e), guardRefMove: taskRefGuard(tasks), ...options });
  if (!opened.ok) throw new Error(opened.error);
  queues.push(opened.value);
  return opened.value;
}

const finishedTask = (queue: MergeQueue, id: string, file: string) => finishTask(repo, tasks, queue, id, file);

const tip = (): string => repo.git(['rev-parse', 'teamd/integration']);
const onIntegration = (file: string): boolean => repo.git(['ls-tree', '--name-only', '-r', 'teamd/integration']).split('\n').includes(file);

it('the guard completes the task in the same locked change that moves the integration branch', async () => {
  const queue = await openQueue();
  await finishedTask(queue, 'a', 'a.txt');
  const [result] = await queue.drain();
  expect(result?.type).toBe('merged');
  const task = tasks.get('a')!;
  expect(task.status).toBe('completed');
  expect(task.result?.mergeCommit).toBe(tip());
});

it('a cancel that lands after verify, before the ref moves, wins: nothing merged, entry cancelled', async () => {
  const cancel = `"${process.execPath}" --import "${TSX}" "${MAIN}" task cancel a --dir "${repo.root}"`;
  const queue = await openQueue({ verify: cancel });
  await finishedTask(queue, 'a', 'a.txt');
  const before = tip();
  const [result] = await queue.drain();
  expect(result).toMatchObject({ type: 'merge_cancelled', taskId: 'a', aborted: true });
  expect(tip()).toBe(before);
  expect(onIntegration('a.txt')).toBe(false);
  await tasks.refresh('a');
  expect(tasks.get('a')?.status).toBe('cancelled');
  const file = await readMergeQueueFile(mergeQueuePath(repo.root), 'teamd/integration');
  expect(file.ok && file.value.entries[0]?.state).toBe('cancelled');
}, 30_000);

it('cancelling a queued entry takes it out; cancelling a merging one aborts its verify', async () => {
  const gate = join(repo.root, '.team', 'state', 'go');
  const started = join(repo.root, '.team', 'state', 'verifying');
  const queue = await openQueue({ verify: `touch "${started}"; while [ ! -f "${gate}" ]; do sleep 0.05; done` });
  await finishedTask(queue, 'a', 'a.txt');
  await finishedTask(queue, 'b', 'b.txt');
  const before = tip();
  const drained = queue.drain();
  await until(() => existsSync(started));
  // b waits behind a: it leaves the queue at once.
  expect(await queue.cancel('b')).toBe('cancelled');
  // a is verifying: its verify is killed, nothing merges.
  expect(await queue.cancel('a')).toBe('aborting');
  const results = await drained;
  expect(results.map((r) => r.type)).toEqual(['merge_cancelled']);
  expect(tip()).toBe(before);
  expect(queue.entries().map((e) => [e.taskId, e.state])).toEqual([['a', 'cancelled'], ['b', 'cancelled']]);
  expect(events.filter((e) => e.type === 'merge_cancelled').map((e) => e.taskId).sort()).toEqual(['a', 'b']);
  expect(await queue.cancel('a')).toBe('none');
}, 30_000);

async function until(check: () => boolean, timeoutMs = 20_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
}
