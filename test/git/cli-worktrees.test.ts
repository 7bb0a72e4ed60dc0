import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  cleanFinishedWorktrees,
  formatMergeQueue,
  mergeQueueEntries,
  readTaskStatus,
  worktreeRows,
} from '../../src/cli/worktrees.js';
import { commitWorktree, teammateEmail } from '../../src/git/commit.js';
import { MergeQueue } from '../../src/git/merge-queue.js';
import { Worktrees } from '../../src/git/worktrees.js';
import { makeRepo, withLine, type TempRepo } from './temp-repo.js';

/** Resolved here: the commands also run from temp folders, where `tsx` is not resolvable. */
const TSX = createRequire(import.meta.url).resolve('tsx');
const ENTRY = fileURLToPath(new URL('./fixtures/cli-entry.ts', import.meta.url));

let repo: TempRepo;
beforeEach(() => {
  repo = makeRepo();
});
afterEach(() => repo.cleanup());

/** Two finished tasks that edited the same line: `done` merged, `doing` refused (and back in progress). */
async function twoTasks(): Promise<void> {
  const worktrees = new Worktrees({ repoRoot: repo.root });
  const opened = await MergeQueue.open({ repoRoot: repo.root });
  if (!opened.ok) throw new Error(opened.error);
  const queue = opened.value;
  for (const [taskId, line] of [
    ['done', 'done edit'],
    ['doing', 'doing edit'],
  ] as const) {
    const made = await worktrees.create({ taskId, agent: 'w1' });
    if (!made.ok) throw new Error(made.error);
    repo.write('src/a.txt', withLine(2, line), made.value.path);
    await commitWorktree(made.value.path, {
      message: taskId,
      authorName: 'w1',
      authorEmail: teammateEmail('w1'),
    });
    await queue.enqueue({ taskId, branch: made.value.branch, agent: 'w1', subject: `Task ${taskId}` });
  }
  await queue.drain();
  await queue.close();
  writeTask('done', 'completed');
  writeTask('doing', 'in_progress');
}

function writeTask(id: string, status: string): void {
  const now = new Date().toISOString();
  repo.write(
    `.tasks/${id}.json`,
    JSON.stringify({ id, subject: `Task ${id}`, status, owner: 'w1', createdAt: now, updatedAt: now }),
  );
}

function teamd(args: string[], cwd = repo.root): { status: number | null; stdout: string; stderr: string } {
  const run = spawnSync(process.execPath, ['--import', TSX, ENTRY, ...args], { cwd, encoding: 'utf8' });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

describe('task files and bad state', () => {
  it('reads task status from full and dropped task files', async () => {
    writeTask('done', 'completed');
    repo.write('.tasks/dropped.json', JSON.stringify({ subject: 'just dropped' }));
    expect(await readTaskStatus(repo.root, 'done')).toBe('completed');
    expect(await readTaskStatus(repo.root, 'dropped')).toBe('pending');
    expect(await readTaskStatus(repo.root, 'nothing')).toBe('missing');
    repo.write('.tasks/broken.json', '{"subject": 3}');
    expect(await readTaskStatus(repo.root, 'broken')).toBe('invalid');
  });

  it('fails with the file named when the queue file is invalid', async () => {
    repo.write('.team/state/merge-queue.json', '{"version": 2}');
    await expect(mergeQueueEntries(repo.root)).rejects.toThrow(/merge-queue\.json[\s\S]*version/);
  });
});

describe('worktree commands', () => {
  beforeEach(twoTasks);

  it('lists worktrees with task and merge state, and cleans only finished tasks', async () => {
    const rows = await worktreeRows(repo.root);
    const byId = new Map(rows.map((r) => [r.taskId, r]));
    expect(byId.get('done')).toMatchObject({
      taskStatus: 'completed',
      mergeState: 'merged',
      branch: 'teamd/done',
    });
    expect(byId.get('doing')).toMatchObject({ taskStatus: 'in_progress', mergeState: 'refused' });
    expect(rows.find((r) => r.kind === 'merge')).toBeTruthy();

    const report = await cleanFinishedWorktrees(repo.root);
    expect(report.removed).toEqual(['done']);
    expect((await worktreeRows(repo.root)).map((r) => r.taskId).filter(Boolean)).toEqual(['doing']);
  });

  it('formats the merge queue with refusal reasons', async () => {
    const lines = formatMergeQueue(await mergeQueueEntries(repo.root));
    expect(lines).toContain('merged (1)');
    expect(lines).toContain('refused (1)');
    expect(lines).toContain('    conflict in src/a.txt');
  });

  it('runs as commands, from the main checkout or inside a worktree', () => {
    const table = teamd(['worktrees', '--dir', repo.root]);
    expect(table.status).toBe(0);
    expect(table.stdout).toMatch(/^WORKTREE\s+BRANCH\s+TASK\s+MERGE\s+CHANGES\s+SIZE/);
    expect(table.stdout).toMatch(
      /\.worktrees\/doing\s+teamd\/doing\s+in_progress\s+refused\s+clean\s+[\d.]+ KiB/,
    );

    const queue = teamd(['merge-queue', '--json'], join(repo.root, '.worktrees', 'doing'));
    expect(queue.status).toBe(0);
    const entries = JSON.parse(queue.stdout) as { taskId: string; state: string }[];
    expect(entries.map((e) => [e.taskId, e.state])).toEqual([
      ['done', 'merged'],
      ['doing', 'refused'],
    ]);

    const cleaned = teamd(['worktrees', 'clean', '--dir', repo.root, '--json']);
    expect(cleaned.status).toBe(0);
    expect(JSON.parse(cleaned.stdout)).toMatchObject({ removed: ['done'] });
  });
});
