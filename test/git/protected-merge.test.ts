/**
 * A branch that changes what steers the agents is not merged on an agent's
 * word: the first line (the lead's reviews, before the queue takes the task)
 * and the last (the guard under the task's lock, before the integration
 * branch moves) both hold it for a person; a person's accept lets it merge.
 */
import { mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { MergeQueue } from '../../src/git/merge-queue.js';
import type { MergeEvent } from '../../src/git/types.js';
import { TeamConfigSchema } from '../../src/config/schema.js';
import { taskRefGuard } from '../../src/lead/merge-outcomes.js';
import { personNeeded } from '../../src/lead/protected-review.js';
import { acceptReview, inReview } from '../../src/lead/review-state.js';
import { Reviews } from '../../src/lead/reviews.js';
import type { TeamEvent } from '../../src/observe/types.js';
import { MailboxStore } from '../../src/store/mailbox/index.js';
import { TaskStore } from '../../src/store/tasks/index.js';
import type { Task } from '../../src/store/types.js';
import { finishedTask } from './finished-task.js';
import { makeRepo, type TempRepo } from './temp-repo.js';

let repo: TempRepo;
let tasks: TaskStore;
let queue: MergeQueue;
const events: MergeEvent[] = [];
beforeEach(async () => {
  repo = makeRepo();
  tasks = await TaskStore.open(repo.root);
  const opened = await MergeQueue.open({
    repoRoot: repo.root,
    onEvent: (e) => events.push(e),
    guardRefMove: taskRefGuard(tasks, undefined, (t) => personNeeded(repo.root, 'teamd/integration', t)),
  });
  if (!opened.ok) throw new Error(opened.error);
  queue = opened.value;
});
afterEach(async () => {
  await queue.close();
  repo.cleanup();
});

const tip = (): string => repo.git(['rev-parse', 'teamd/integration']);
const branchOf = (id: string): string => (tasks.get(id)!.metadata.merge as { branch: string }).branch;
const review = (t: Task | undefined) => (t?.metadata.merge as { review?: { mode: string; handedOver?: string } }).review;

it('the guard holds an already-queued task that changes .claude/ for a person; their accept merges it', async () => {
  await finishedTask(repo, tasks, queue, 'a', '.claude/settings.json');
  const before = tip();
  const [first] = await queue.drain();
  expect(first).toMatchObject({ type: 'merge_cancelled', taskId: 'a' });
  expect(tip()).toBe(before);
  await tasks.refresh('a');
  expect(inReview(tasks.get('a'))).toBe(true);
  expect(review(tasks.get('a'))).toMatchObject({ mode: 'human', handedOver: expect.stringContaining('.claude/settings.json') });
  // The reviewer agent's accept is not enough…
  await tasks.update('a', (t) => acceptReview(t, 'reviewer', new Date()));
  await queue.enqueue({ taskId: 'a', branch: branchOf('a'), agent: 'w1', subject: 'a' });
  expect((await queue.drain())[0]).toMatchObject({ type: 'merge_cancelled' });
  expect(tip()).toBe(before);
  // …a person's is.
  await tasks.refresh('a');
  await tasks.update('a', (t) => acceptReview(t, 'user', new Date()));
  await queue.enqueue({ taskId: 'a', branch: branchOf('a'), agent: 'w1', subject: 'a' });
  expect((await queue.drain())[0]).toMatchObject({ type: 'merged' });
  expect(tasks.get('a')?.status).toBe('completed');
}, 30_000);

it('the guard holds a branch that adds a symlink into .claude/, named in the reason; a person\'s accept merges it', async () => {
  await finishedTask(repo, tasks, queue, 'l', 'docs/settings', (w) => {
    mkdirSync(join(w, 'docs'), { recursive: true });
    symlinkSync('../.claude/settings.json', join(w, 'docs/settings'));
  });
  const before = tip();
  expect((await queue.drain())[0]).toMatchObject({ type: 'merge_cancelled', taskId: 'l' });
  expect(tip()).toBe(before);
  await tasks.refresh('l');
  expect(review(tasks.get('l'))).toMatchObject({
    mode: 'human',
    handedOver: expect.stringContaining('docs/settings: a symlink to .claude/settings.json'),
  });
  await tasks.update('l', (t) => acceptReview(t, 'user', new Date()));
  await queue.enqueue({ taskId: 'l', branch: branchOf('l'), agent: 'w1', subject: 'l' });
  expect((await queue.drain())[0]).toMatchObject({ type: 'merged' });
  expect(repo.git(['ls-tree', 'teamd/integration', 'docs/settings'])).toMatch(/^120000 /);
}, 30_000);

it('a branch moved to a harmless commit while its protected merge is verified is still held: the guard checks the merge commit', async () => {
  await queue.close();
  const harmless = repo.git(['commit-tree', '-p', 'main', '-m', 'harmless', repo.git(['rev-parse', 'main^{tree}'])]);
  // The verify command stands for whoever moves the branch between the merge's start and the ref move.
  const opened = await MergeQueue.open({
    repoRoot: repo.root,
    verify: `git -C '${repo.root}' update-ref refs/heads/teamd/e ${harmless}`,
    guardRefMove: taskRefGuard(tasks, undefined, (t, merge) => personNeeded(repo.root, 'teamd/integration', t, merge)),
  });
  if (!opened.ok) throw new Error(opened.error);
  queue = opened.value;
  await finishedTask(repo, tasks, queue, 'e', '.claude/settings.json');
  const before = tip();
  expect((await queue.drain())[0]).toMatchObject({ type: 'merge_cancelled', taskId: 'e' });
  expect(repo.git(['rev-parse', 'teamd/e'])).toBe(harmless); // it did move
  expect(tip()).toBe(before);
  await tasks.refresh('e');
  expect(review(tasks.get('e'))?.handedOver).toContain('.claude/settings.json');
}, 30_000);

it('an ordinary change merges under the same guard', async () => {
  await finishedTask(repo, tasks, queue, 'b', 'src/b.txt');
  expect((await queue.drain())[0]).toMatchObject({ type: 'merged' });
});

it('the reviews hold a finished task under review "auto" before the queue sees it, and say why', async () => {
  await finishedTask(repo, tasks, queue, 'c', 'CLAUDE.md');
  await finishedTask(repo, tasks, queue, 'd', 'src/d.txt');
  const log: TeamEvent[] = [];
  const accepted: string[] = [];
  const reviews = new Reviews({
    repoRoot: repo.root,
    config: TeamConfigSchema.parse({ review: 'auto' }),
    tasks,
    mailbox: new MailboxStore(repo.root),
    log: (e) => log.push(e),
    worktreeOf: () => repo.root,
    accepted: (t) => accepted.push(t.id),
  });
  expect(reviews.notice(tasks.get('c')!)).toBe(true);
  expect(reviews.notice(tasks.get('d')!)).toBe(true); // held while its diff is checked
  await expect.poll(() => accepted, { timeout: 10_000 }).toEqual(['d']);
  expect(reviews.notice(tasks.get('d')!)).toBe(false); // checked: the queue may take it
  await expect.poll(() => inReview(tasks.get('c')), { timeout: 10_000 }).toBe(true);
  expect(review(tasks.get('c'))?.handedOver).toMatch(/^it changes files that steer the agents, so a person must accept it: CLAUDE\.md: /);
  expect(log).toContainEqual(expect.objectContaining({ type: 'review_requested', task: 'c', mode: 'human' }));
  expect(reviews.notice(tasks.get('c')!)).toBe(true);
  await reviews.close();
}, 30_000);
