import { readFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { commitWorktree, teammateEmail } from '../../src/git/commit.js';
import { mergeQueuePath, readMergeQueueFile } from '../../src/git/merge-queue-file.js';
import { MergeQueue } from '../../src/git/merge-queue.js';
import type { MergeEvent, MergeQueueOptions } from '../../src/git/types.js';
import { Worktrees } from '../../src/git/worktrees.js';
import { makeRepo, withLine, type TempRepo } from './temp-repo.js';

let repo: TempRepo;
let worktrees: Worktrees;
let queues: MergeQueue[];
let events: MergeEvent[];
beforeEach(() => {
  repo = makeRepo();
  worktrees = new Worktrees({ repoRoot: repo.root });
  queues = [];
  events = [];
});
afterEach(async () => {
  for (const queue of queues) await queue.close();
  repo.cleanup();
});

async function openQueue(options: Partial<MergeQueueOptions> = {}): Promise<MergeQueue> {
  const opened = await MergeQueue.open({ repoRoot: repo.root, onEvent: (e) => events.push(e), ...options });
  if (!opened.ok) throw new Error(opened.error);
  queues.push(opened.value);
  return opened.value;
}

/** A teammate's whole task: worktree, edits, commit, and a place in the queue. */
async function doTask(
  queue: MergeQueue,
  taskId: string,
  agent: string,
  files: Record<string, string>,
): Promise<string> {
  const made = await worktrees.create({ taskId, agent });
  if (!made.ok) throw new Error(made.error);
  for (const [file, content] of Object.entries(files)) repo.write(file, content, made.value.path);
  const committed = await commitWorktree(made.value.path, {
    message: `${taskId}: work`,
    authorName: agent,
    authorEmail: teammateEmail(agent),
  });
  if (!committed.ok) throw new Error(committed.error);
  const queued = await queue.enqueue({ taskId, branch: made.value.branch, agent, subject: `Task ${taskId}` });
  if (!queued.ok) throw new Error(queued.error);
  return made.value.path;
}

const mergeCount = (taskId: string): number =>
  repo
    .git(['log', '--merges', '--format=%s', 'teamd/integration'])
    .split('\n')
    .filter((s) => s.startsWith(`Merge task ${taskId}:`)).length;
const integrationFile = (file: string): string => repo.git(['show', `teamd/integration:${file}`]);

describe('MergeQueue', () => {
  it('merges two tasks that edited different files in parallel, never touching the main checkout', async () => {
    const queue = await openQueue();
    const before = repo.snapshot();
    await Promise.all([
      doTask(queue, 'left', 'w1', { 'src/a.txt': withLine(1, 'left edit') }),
      doTask(queue, 'right', 'w2', { 'src/b.txt': 'right file\n' }),
    ]);
    const results = await queue.drain();
    expect(results.map((r) => r.type)).toEqual(['merged', 'merged']);
    expect(integrationFile('src/a.txt')).toContain('left edit');
    expect(integrationFile('src/b.txt')).toBe('right file');
    const log = repo.git(['log', '--first-parent', '--format=%s|%an', 'teamd/integration']).split('\n');
    expect(log.slice(0, 2).sort()).toEqual([
      'Merge task left: Task left|teamd',
      'Merge task right: Task right|teamd',
    ]);
    const merged = results[1];
    expect(merged?.type === 'merged' && merged.mergeCommit).toBe(
      repo.git(['rev-parse', 'teamd/integration']),
    );
    expect(repo.snapshot()).toEqual(before);
    expect(events.filter((e) => e.type === 'merge_started')).toHaveLength(2);
  });

  it('refuses a conflicting task with the file named, then merges it once the owner resolved it', async () => {
    const queue = await openQueue();
    await doTask(queue, 'first', 'w1', { 'src/a.txt': withLine(5, 'first version') });
    const secondPath = await doTask(queue, 'second', 'w2', { 'src/a.txt': withLine(5, 'second version') });
    const [first, second] = await queue.drain();
    expect(first?.type).toBe('merged');
    expect(second).toMatchObject({
      type: 'merge_refused',
      reason: 'conflict',
      conflictFiles: ['src/a.txt'],
      taskId: 'second',
    });
    expect(second?.type === 'merge_refused' && second.message).toMatch(/conflicts in: src\/a\.txt/);
    const tipAfterFirst = repo.git(['rev-parse', 'teamd/integration']);
    expect(queue.entries().find((e) => e.taskId === 'second')?.state).toBe('refused');
    expect(repo.git(['rev-parse', '--verify', 'teamd/second'])).toBeTruthy();

    // The owner merges the integration branch into its worktree, resolves, and finishes again.
    expect(() => repo.git(['merge', '-q', 'teamd/integration'], secondPath)).toThrow();
    repo.write('src/a.txt', withLine(5, 'first and second version'), secondPath);
    const fixed = await commitWorktree(secondPath, {
      message: 'resolve',
      authorName: 'w2',
      authorEmail: teammateEmail('w2'),
    });
    expect(fixed.ok && fixed.value.commit).toBeTruthy();
    await queue.enqueue({ taskId: 'second', branch: 'teamd/second', agent: 'w2', subject: 'Task second' });
    const [again] = await queue.drain();
    expect(again).toMatchObject({
      type: 'merged',
      taskId: 'second',
      previousTip: tipAfterFirst,
      alreadyMerged: false,
    });
    expect(integrationFile('src/a.txt')).toContain('first and second version');
  });

  it('gives a dependent task, created after its dependency merged, the dependency change', async () => {
    const queue = await openQueue();
    await doTask(queue, 'design-ast', 'w1', { 'src/ast.txt': 'the ast\n' });
    await queue.drain();
    const made = await worktrees.create({ taskId: 'build-parser', agent: 'w2' });
    expect(made.ok && repo.read('src/ast.txt', made.value.path)).toBe('the ast\n');
  });

  it('refuses a task whose verify command fails, with the output, leaving the integration branch alone', async () => {
    const queue = await openQueue({
      verify: 'echo "running tests"; grep -q good src/b.txt || { echo "FAIL: b is bad" >&2; exit 1; }',
    });
    await doTask(queue, 'bad', 'w1', { 'src/b.txt': 'bad\n' });
    const tipBefore = repo.git(['rev-parse', 'teamd/integration']);
    await doTask(queue, 'good', 'w2', { 'src/b.txt': 'good\n' });
    const [bad, good] = await queue.drain();
    expect(bad).toMatchObject({ type: 'merge_refused', reason: 'verify_failed', taskId: 'bad' });
    expect(bad?.type === 'merge_refused' && bad.outputTail).toMatch(/running tests\s+FAIL: b is bad/);
    expect(good).toMatchObject({ type: 'merged', previousTip: tipBefore });
    expect(repo.git(['rev-parse', '--verify', 'teamd/bad'])).toBeTruthy();
    expect(repo.git(['status', '--porcelain'], `${repo.root}/.worktrees/.merge`)).toBe('');
  });

  it('refuses a verify command that times out', async () => {
    const queue = await openQueue({ verify: 'echo started; sleep 30', verifyTimeoutMs: 300 });
    await doTask(queue, 'slow', 'w1', { 'src/b.txt': 'x\n' });
    const slow = await queue.processNext();
    expect(slow).toMatchObject({
      type: 'merge_refused',
      reason: 'verify_failed',
      outputTail: expect.stringContaining('started'),
    });
    expect(slow?.type === 'merge_refused' && slow.message).toMatch(/timed out after 300 ms/);
  });

  it('merges again onto the new tip when the integration branch moves during the merge (compare-and-swap)', async () => {
    await doTask(await openQueue(), 'raced', 'w1', { 'src/b.txt': 'raced\n' });
    const tree = repo.git(['rev-parse', 'teamd/integration^{tree}']);
    const elsewhere = repo.git([
      'commit-tree',
      tree,
      '-p',
      'teamd/integration',
      '-m',
      'moved by someone else',
    ]);
    // The first verify moves the integration branch, as another process could at that moment.
    const once = `${repo.root}/.git/moved-once`;
    const verify = `[ -f ${once} ] || { touch ${once}; git -C ${repo.root} update-ref refs/heads/teamd/integration ${elsewhere}; }`;
    const queue = await openQueue({ verify });
    const [result] = await queue.drain();
    expect(result).toMatchObject({ type: 'merged', previousTip: elsewhere, alreadyMerged: false });
    expect(repo.git(['rev-parse', 'teamd/integration^1'])).toBe(elsewhere);
    expect(queue.entries().find((e) => e.taskId === 'raced')?.attempts).toBe(2);
    expect(mergeCount('raced')).toBe(1);
  });

  it('is blocked, leaving the entry queued, while the integration branch is checked out in the main checkout', async () => {
    const queue = await openQueue();
    await doTask(queue, 'waits', 'w1', { 'src/b.txt': 'b\n' });
    repo.git(['switch', '-q', 'teamd/integration']);
    const tipBefore = repo.git(['rev-parse', 'teamd/integration']);
    const [blocked] = await queue.drain();
    expect(blocked).toMatchObject({ type: 'merge_blocked', taskId: 'waits' });
    expect(blocked?.type === 'merge_blocked' && blocked.message).toMatch(/checked out in .*git switch main/s);
    expect(queue.entries()[0]?.state).toBe('queued');
    expect(repo.git(['rev-parse', 'teamd/integration'])).toBe(tipBefore);

    repo.git(['switch', '-q', 'main']);
    expect((await queue.drain()).map((r) => r.type)).toEqual(['merged']);
  });

  it('persists the queue so another process sees it, and validates the file on load', async () => {
    const queue = await openQueue();
    await doTask(queue, 'shown', 'w1', { 'src/b.txt': 'b\n' });
    const read = await readMergeQueueFile(mergeQueuePath(repo.root), 'teamd/integration');
    expect(read.ok && read.value.entries.map((e) => [e.taskId, e.state])).toEqual([['shown', 'queued']]);
    await queue.drain();
    const reopened = await openQueue();
    expect(reopened.entries()[0]).toMatchObject({
      state: 'merged',
      mergeCommit: repo.git(['rev-parse', 'teamd/integration']),
    });

    repo.write(
      '.team/state/merge-queue.json',
      JSON.stringify({ version: 1, integrationBranch: 'x', entries: [{ taskId: 'a' }] }),
    );
    const broken = await MergeQueue.open({ repoRoot: repo.root });
    expect(!broken.ok && broken.error).toMatch(/merge-queue\.json[\s\S]*entries/);
    expect(readFileSync(mergeQueuePath(repo.root), 'utf8')).toContain('"taskId":"a"');
  });

  it('refuses bad enqueue input and a missing branch', async () => {
    const queue = await openQueue();
    const bad = await queue.enqueue({ taskId: '../x', branch: 'teamd/x', agent: 'w1', subject: 's' });
    expect(!bad.ok && bad.error).toMatch(/taskId/);
    await queue.enqueue({ taskId: 'ghost', branch: 'teamd/ghost', agent: 'w1', subject: 's' });
    const [ghost] = await queue.drain();
    expect(ghost).toMatchObject({
      type: 'merge_refused',
      reason: 'error',
      message: expect.stringMatching(/does not exist/),
    });
  });

  it('marks a branch the integration branch already contains as merged without a second merge', async () => {
    const queue = await openQueue();
    await doTask(queue, 'twice', 'w1', { 'src/b.txt': 'b\n' });
    const [first] = await queue.drain();
    const tip = repo.git(['rev-parse', 'teamd/integration']);
    await queue.enqueue({ taskId: 'twice', branch: 'teamd/twice', agent: 'w1', subject: 'again' });
    const [second] = await queue.drain();
    expect(second).toMatchObject({
      type: 'merged',
      alreadyMerged: true,
      mergeCommit: first?.type === 'merged' ? first.mergeCommit : '',
    });
    expect(repo.git(['rev-parse', 'teamd/integration'])).toBe(tip);
  });
});
