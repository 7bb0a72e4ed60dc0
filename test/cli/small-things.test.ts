import { execFileSync, spawn } from 'node:child_process';
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeDefaultConfig } from '../../src/config/load.js';
import { TaskStore } from '../../src/store/tasks/index.js';
import { teamdArgs } from '../support/teamd-cli.js';
import { tempRepo } from '../store/temp-repo.js';
import { errorLine, teamd } from './run-teamd.js';


let dir: Awaited<ReturnType<typeof tempRepo>>;
beforeEach(async () => {
  dir = await tempRepo('teamd-cli-small-');
});
afterEach(async () => {
  await dir.cleanup();
});

describe('outside a git repository', () => {
  it('every file command says so and writes nothing', async () => {
    const runs = await Promise.all([
      teamd(dir.root, 'task', 'add', 'x'),
      teamd(dir.root, 'task', 'ls'),
      teamd(dir.root, 'send', 'worker-1', 'hi'),
      teamd(dir.root, 'cron', 'add', '* * * * *', 'tick', '--to', 'lead'),
      teamd(dir.root, 'init'),
    ]);
    for (const run of runs)
      expect(errorLine(run)).toBe(
        `teamd: error: not inside a git repository (${dir.root}): run teamd in one, or pass --dir <repo>`,
      );
    expect(await readdir(dir.root)).toEqual([]);
  });

  it('--dir is taken as given', async () => {
    expect((await teamd(dir.root, 'task', 'add', 'x', '--id', 'x', '--dir', dir.root)).code).toBe(0);
  });
});

describe('piping into head', () => {
  it('exits quietly when the reader goes away (no EPIPE stack trace)', async () => {
    execFileSync('git', ['init', '-q'], { cwd: dir.root });
    await mkdir(join(dir.root, '.tasks'));
    // Enough output that the CLI is still writing when the reader leaves.
    await Promise.all(
      Array.from({ length: 400 }, (_, i) =>
        writeFile(
          join(dir.root, '.tasks', `t-${String(i).padStart(4, '0')}.json`),
          JSON.stringify({ subject: `task ${i} ${'x'.repeat(200)}` }),
        ),
      ),
    );
    const child = spawn(process.execPath, teamdArgs('task', 'ls', '--json'), {
      cwd: dir.root,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdout.once('data', () => child.stdout.destroy());
    const code = await new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
    expect(stderr).toBe('');
    expect(code).toBe(0);
  });
});

describe('teamd send', () => {
  it('explains how to broadcast instead of a pattern error', async () => {
    execFileSync('git', ['init', '-q'], { cwd: dir.root });
    await writeDefaultConfig(dir.root);
    const [star, all] = await Promise.all([teamd(dir.root, 'send', '*', 'hi'), teamd(dir.root, 'send', 'all', 'hi')]);
    const help =
      `teamd send writes to one inbox. To broadcast, send once per member: ` +
      `for a in lead worker-1 worker-2; do teamd send "$a" '…'; done`;
    expect(errorLine(star)).toBe(`teamd: error: "*" is not one member of the team: ${help}`);
    expect(errorLine(all)).toBe(`teamd: error: "all" is not one member of the team: ${help}`);
  });
});

describe('warnings', () => {
  it("a cancelled or completed task's removed blocker is no warning; a pending task's is, once", async () => {
    execFileSync('git', ['init', '-q'], { cwd: dir.root });
    const store = await TaskStore.open(dir.root);
    await store.create({ id: 'gone', subject: 'gone' });
    await store.create({ id: 'old', subject: 'old', blockedBy: ['gone'] });
    await store.create({ id: 'waits', subject: 'waits', blockedBy: ['gone'] });
    await store.cancel('old');
    execFileSync('rm', [join(dir.root, '.tasks', 'gone.json')]);
    const ls = await teamd(dir.root, 'task', 'ls');
    expect(ls.code).toBe(0);
    expect(ls.stderr).toBe('teamd: warning: .tasks/waits.json: blockedBy.0: no task "gone"\n');
  });
});
