import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { commitWorktree, teammateEmail } from '../../src/git/commit.js';
import { Worktrees } from '../../src/git/worktrees.js';
import { hookAt } from './escape-kit.js';
import { cleanEnv, makeRepo, type TempRepo } from './temp-repo.js';

let repo: TempRepo;
let worktrees: Worktrees;
let path: string;
let admin: string;
beforeEach(async () => {
  repo = makeRepo();
  worktrees = new Worktrees({ repoRoot: repo.root });
  const made = await worktrees.create({ taskId: 'work', agent: 'ada' });
  if (!made.ok) throw new Error(made.error);
  path = made.value.path;
  admin = join(repo.root, '.git', 'worktrees', 'work');
});
afterEach(() => repo.cleanup());

const asAda = { message: 'work: done', authorName: 'ada', authorEmail: teammateEmail('ada') };

/** Runs `git commit` in its own process group, stopped inside a pre-commit hook (holding index.lock), then kills the group. */
async function killGitMidCommit(): Promise<void> {
  const marker = join(repo.root, '.git', 'in-hook');
  hookAt(join(repo.root, '.git', 'hooks'), 'pre-commit', marker);
  writeFileSync(join(repo.root, '.git', 'hooks', 'pre-commit'), `#!/bin/sh\ntouch '${marker}'\nsleep 60\n`);
  repo.write('src/a.txt', 'half\n', path);
  const env = cleanEnv();
  const child = spawn('git', ['commit', '-a', '-qm', 'killed'], {
    cwd: path,
    env,
    detached: true,
    stdio: 'ignore',
  });
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  await waitFor(() => existsSync(marker));
  process.kill(-(child.pid ?? 0), 'SIGKILL');
  await exited;
  rmSync(join(repo.root, '.git', 'hooks', 'pre-commit'));
}

async function waitFor(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('stale git locks in teamd worktrees', () => {
  it('a git killed mid-commit leaves index.lock; the commit step clears it and commits', async () => {
    await killGitMidCommit();
    expect(existsSync(join(admin, 'index.lock'))).toBe(true);
    const done = await commitWorktree(path, asAda);
    expect(done.ok && done.value.commit).toBeTruthy();
    expect(repo.git(['show', 'teamd/work:src/a.txt'])).toBe('half');
  });

  it('a git killed mid-commit leaves index.lock; reusing the worktree clears it', async () => {
    await killGitMidCommit();
    expect(existsSync(join(admin, 'index.lock'))).toBe(true);
    const again = await worktrees.create({ taskId: 'work', agent: 'ada' });
    expect(again.ok && again.value.reusedWorktree).toBe(true);
    expect(existsSync(join(admin, 'index.lock'))).toBe(false);
    const done = await commitWorktree(path, asAda);
    expect(done.ok && done.value.commit).toBeTruthy();
    expect(repo.git(['show', 'teamd/work:src/a.txt'])).toBe('half');
  });

  it('at start, clears the locks of every teamd worktree (branch ref lock too), never the main checkout index.lock', async () => {
    writeFileSync(join(admin, 'index.lock'), '');
    writeFileSync(join(admin, 'HEAD.lock'), '');
    writeFileSync(join(repo.root, '.git', 'refs', 'heads', 'teamd', 'work.lock'), '');
    writeFileSync(join(repo.root, '.git', 'index.lock'), '');
    const removed = await worktrees.clearStaleLocks();
    expect(removed.sort()).toEqual(
      [
        join(admin, 'HEAD.lock'),
        join(admin, 'index.lock'),
        join(repo.root, '.git', 'refs', 'heads', 'teamd', 'work.lock'),
      ].sort(),
    );
    expect(existsSync(join(repo.root, '.git', 'index.lock'))).toBe(true);
    rmSync(join(repo.root, '.git', 'index.lock'));
  });

  it('a worktree add killed after it locked the entry: the worktree is made again, not adopted half-made', async () => {
    rmSync(path, { recursive: true, force: true });
    writeFileSync(join(admin, 'locked'), 'initializing');
    const again = await worktrees.create({ taskId: 'work', agent: 'ada' });
    expect(again.ok).toBe(true);
    expect(repo.read('src/a.txt', path)).toContain('line 1');
    expect(existsSync(join(admin, 'locked'))).toBe(false);
  });

  it('keeps the locks while a live git process works in the worktree', async () => {
    writeFileSync(join(admin, 'index.lock'), '');
    const holder: ChildProcess = spawn('git', ['cat-file', '--batch'], {
      cwd: path,
      stdio: ['pipe', 'ignore', 'ignore'],
    });
    const exited = new Promise<void>((resolve) => holder.on('exit', () => resolve()));
    try {
      await waitFor(() => holder.pid !== undefined);
      expect(await worktrees.clearStaleLocks()).toEqual([]);
      expect(existsSync(join(admin, 'index.lock'))).toBe(true);
    } finally {
      holder.stdin?.end();
      await exited;
    }
    expect(await worktrees.clearStaleLocks()).toEqual([join(admin, 'index.lock')]);
  });
});
