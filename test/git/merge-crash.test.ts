import { spawn } from 'node:child_process';
import { chmodSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { commitWorktree, teammateEmail } from '../../src/git/commit.js';
import { MergeQueue } from '../../src/git/merge-queue.js';
import { Worktrees } from '../../src/git/worktrees.js';
import { makeRepo, type TempRepo } from './temp-repo.js';

const TSX = createRequire(import.meta.url).resolve('tsx');
const CHILD = fileURLToPath(new URL('./fixtures/merge-queue-child.ts', import.meta.url));

/**
 * Stops inside `git update-ref` of the integration branch, in the given
 * transaction state, until killed: `prepared` holds the ref's lock before it
 * moves, `committed` runs after it moved (and before the queue records it).
 */
const HOOK = `#!/bin/sh
input=$(cat)
if [ -n "$TEAMD_TEST_HOOK_STATE" ] && [ "$1" = "$TEAMD_TEST_HOOK_STATE" ]; then
  case "$input" in *refs/heads/teamd/integration*) touch "$TEAMD_TEST_MARKER"; sleep 60;; esac
fi
exit 0
`;

let repo: TempRepo;
let marker: string;
beforeEach(() => {
  repo = makeRepo();
  marker = join(repo.root, '.git', 'test-marker');
});
afterEach(() => repo.cleanup());

async function finishTask(taskId: string): Promise<void> {
  const made = await new Worktrees({ repoRoot: repo.root }).create({ taskId, agent: 'w1' });
  if (!made.ok) throw new Error(made.error);
  repo.write('src/crash.txt', `${taskId}\n`, made.value.path);
  const done = await commitWorktree(made.value.path, {
    message: taskId,
    authorName: 'w1',
    authorEmail: teammateEmail('w1'),
  });
  if (!done.ok) throw new Error(done.error);
  const opened = await MergeQueue.open({ repoRoot: repo.root });
  if (!opened.ok) throw new Error(opened.error);
  await opened.value.enqueue({ taskId, branch: made.value.branch, agent: 'w1', subject: `crash ${taskId}` });
}

/** Runs the queue in another process, waits for the marker, then SIGKILLs its whole process group. */
async function drainAndKill(options: { verify?: string; hookState?: string }): Promise<void> {
  // The injected hook runs only because the child trusts the repository's hooks (safe-git.ts).
  const env = {
    ...process.env,
    TEAMD_TEST_MARKER: marker,
    TEAMD_TEST_HOOK_STATE: options.hookState ?? '',
    TEAMD_TRUST_GIT_HOOKS: '1',
  };
  const child = spawn(process.execPath, ['--import', TSX, CHILD, repo.root, options.verify ?? ''], {
    detached: true,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr.on('data', (c: Buffer) => (output += c.toString()));
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  try {
    await waitFor(() => existsSync(marker) || child.exitCode !== null, 30_000);
    expect(existsSync(marker), `the child ended before the marker: ${output}`).toBe(true);
  } finally {
    process.kill(-(child.pid ?? 0), 'SIGKILL');
    await exited;
  }
}

async function waitFor(condition: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function reopen(verify?: string): Promise<MergeQueue> {
  const opened = await MergeQueue.open({ repoRoot: repo.root, verify });
  if (!opened.ok) throw new Error(opened.error);
  return opened.value;
}

const integrationTip = (): string => repo.git(['rev-parse', 'teamd/integration']);
const mergesOf = (taskId: string): string[] =>
  repo
    .git(['log', '--merges', '--format=%s', 'teamd/integration'])
    .split('\n')
    .filter((s) => s.startsWith(`Merge task ${taskId}:`));

/** A pid is gone when no process has it, or only a zombie waiting for its parent. */
function isRunning(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

describe('merge queue crash safety (SIGKILL mid-merge)', () => {
  it('killed during verify: integration keeps the old tip, the orphan verify is stopped, the retry merges once', async () => {
    await finishTask('during-verify');
    const before = repo.snapshot();
    const oldTip = integrationTip();
    await drainAndKill({ verify: `touch "${marker}"; sleep 60` });
    expect(integrationTip()).toBe(oldTip);

    const queue = await reopen('true');
    try {
      const stuck = queue.entries()[0];
      expect(stuck?.state).toBe('merging');
      expect(stuck?.verifyPid && isRunning(stuck.verifyPid)).toBe(true);
      expect(await queue.recover()).toEqual([
        expect.objectContaining({ type: 'merge_recovered', action: 'requeued' }),
      ]);
      await waitFor(() => !isRunning(stuck?.verifyPid ?? 0), 5_000);
      const results = await queue.drain();
      expect(results).toEqual([
        expect.objectContaining({ type: 'merged', alreadyMerged: false, previousTip: oldTip }),
      ]);
      expect(mergesOf('during-verify')).toHaveLength(1);
      expect(queue.entries()[0]).toMatchObject({
        state: 'merged',
        attempts: 2,
        mergeCommit: integrationTip(),
      });
      expect(repo.snapshot()).toEqual(before);
    } finally {
      await queue.close();
    }
  });

  it('killed holding the integration ref lock: the old tip stays, recovery clears the stale lock and merges', async () => {
    await finishTask('holding-lock');
    repo.write('.git/hooks/reference-transaction', HOOK);
    chmodSync(join(repo.root, '.git', 'hooks', 'reference-transaction'), 0o755);
    const oldTip = integrationTip();
    await drainAndKill({ hookState: 'prepared' });
    expect(integrationTip()).toBe(oldTip);
    expect(existsSync(join(repo.root, '.git', 'refs', 'heads', 'teamd', 'integration.lock'))).toBe(true);

    const queue = await reopen();
    try {
      expect(await queue.recover()).toEqual([expect.objectContaining({ action: 'requeued' })]);
      expect((await queue.drain()).map((r) => r.type)).toEqual(['merged']);
      expect(mergesOf('holding-lock')).toHaveLength(1);
      expect(repo.git(['rev-parse', 'teamd/integration^2'])).toBe(
        repo.git(['rev-parse', 'teamd/holding-lock']),
      );
    } finally {
      await queue.close();
    }
  });

  it('killed after the ref moved but before the queue file recorded it: marked merged, never merged twice', async () => {
    await finishTask('after-move');
    repo.write('.git/hooks/reference-transaction', HOOK);
    chmodSync(join(repo.root, '.git', 'hooks', 'reference-transaction'), 0o755);
    const oldTip = integrationTip();
    await drainAndKill({ hookState: 'committed' });
    const newTip = integrationTip();
    expect(newTip).not.toBe(oldTip);
    expect(repo.git(['rev-parse', `${newTip}^1`])).toBe(oldTip);

    const queue = await reopen();
    try {
      expect(queue.entries()[0]?.state).toBe('merging');
      const events = await queue.recover();
      expect(events).toEqual([
        expect.objectContaining({ type: 'merge_recovered', action: 'already_merged' }),
        expect.objectContaining({
          type: 'merged',
          mergeCommit: newTip,
          previousTip: oldTip,
          alreadyMerged: true,
        }),
      ]);
      expect(await queue.drain()).toEqual([]);
      expect(integrationTip()).toBe(newTip);
      expect(mergesOf('after-move')).toHaveLength(1);
    } finally {
      await queue.close();
    }
  });
});
