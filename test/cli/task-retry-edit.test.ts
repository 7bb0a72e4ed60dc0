import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TaskStore } from '../../src/store/tasks/index.js';
import { teamdArgs } from '../support/teamd-cli.js';
import { tempRepo } from '../store/temp-repo.js';
import { errorLine, teamd, type TeamdRun } from './run-teamd.js';

let repo: Awaited<ReturnType<typeof tempRepo>>;
beforeEach(async () => {
  repo = await tempRepo('teamd-cli-task-');
});
afterEach(async () => {
  await repo.cleanup();
});

const at = (...args: string[]) => teamd(repo.root, ...args, '--dir', repo.root);

/** `teamd …` with `input` on stdin. */
function withStdin(input: string, ...args: string[]): Promise<TeamdRun> {
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      teamdArgs(...args, '--dir', repo.root),
      { cwd: repo.root, timeout: 30_000 },
      (err, stdout, stderr) => resolve({ code: err ? Number(err.code ?? 1) : 0, stdout, stderr }),
    );
    child.stdin!.end(input);
  });
}

async function failedTask(id: string, error: string, blockedBy: string[] = []): Promise<void> {
  const store = await TaskStore.open(repo.root);
  await store.create({ id, subject: `subject of ${id}`, blockedBy });
  await store.claim(id, 'worker-1', 60_000);
  await store.fail(id, 'worker-1', error);
}

describe('teamd task retry', () => {
  it('puts a failed task back to pending and says so; refuses a pending one in one line', async () => {
    await failedTask('parser', 'tests fail');
    expect(await at('task', 'retry', 'parser')).toMatchObject({ code: 0, stdout: 'parser is pending again\n' });
    expect((await TaskStore.open(repo.root)).get('parser')).toMatchObject({ status: 'pending', result: null });
    expect(errorLine(await at('task', 'retry', 'parser'))).toBe(
      'teamd: error: task "parser" is pending; only a failed or cancelled task can be retried',
    );
    expect(errorLine(await at('task', 'retry', 'ghost'))).toBe('teamd: error: no task "ghost"');
  });
});

describe('teamd task edit', () => {
  it('edits fields under the lock and refuses bad ones naming them', async () => {
    await at('task', 'add', 'first', '--id', 'a');
    await at('task', 'add', 'second', '--id', 'b');
    const edited = await at('task', 'edit', 'b', '--subject', 'Second, clearer', '--blocked-by', 'a', '--owner', 'worker-2', '--priority', '-2');
    expect(edited).toMatchObject({ code: 0, stdout: 'edited b\n' });
    expect((await TaskStore.open(repo.root)).get('b')).toMatchObject({
      subject: 'Second, clearer',
      blockedBy: ['a'],
      owner: 'worker-2',
      priority: -2,
    });
    const [cycle, priority, nothing] = await Promise.all([
      at('task', 'edit', 'a', '--blocked-by', 'b'),
      at('task', 'edit', 'a', '--priority', 'high'),
      at('task', 'edit', 'a'),
    ]);
    expect(errorLine(cycle)).toBe('teamd: error: blockedBy: would create a dependency cycle a → b → a');
    expect(errorLine(priority)).toBe('teamd: error: --priority: must be an integer, got "high"');
    expect(errorLine(nothing)).toMatch(/^teamd: error: nothing to change: give --subject/);
    expect((await at('task', 'edit', 'b', '--blocked-by', '', '--unassign')).code).toBe(0);
    expect((await TaskStore.open(repo.root)).get('b')).toMatchObject({ blockedBy: [], owner: null });
  });

  it('edits from racing processes all land (each re-reads the task under its lock)', async () => {
    await at('task', 'add', 'raced', '--id', 'r');
    const runs = await Promise.all([
      at('task', 'edit', 'r', '--subject', 'renamed'),
      at('task', 'edit', 'r', '--priority', '7'),
      at('task', 'edit', 'r', '--owner', 'worker-2'),
      at('task', 'edit', 'r', '--description', 'details'),
    ]);
    expect(runs.map((r) => r.code)).toEqual([0, 0, 0, 0]);
    const task = (await TaskStore.open(repo.root)).get('r')!;
    expect(task).toMatchObject({ subject: 'renamed', priority: 7, owner: 'worker-2', description: 'details' });
    expect(task.notes.filter((n) => n.text.startsWith('edited '))).toHaveLength(4);
  });

  it('takes a long description from a file or from stdin', async () => {
    const long = `# Plan\n\n${'A line of the plan, with "quotes" and $dollars.\n'.repeat(300)}`;
    await writeFile(join(repo.root, 'plan.md'), long);
    const [fromFile, fromStdin, missing, both] = await Promise.all([
      at('task', 'add', 'From a file', '--id', 'f', '--description-file', 'plan.md'),
      withStdin(long, 'task', 'add', 'From stdin', '--id', 's', '--description', '-'),
      at('task', 'add', 'x', '--description-file', 'missing.md'),
      at('task', 'add', 'x', '--description', 'a', '--description-file', 'plan.md'),
    ]);
    expect([fromFile.code, fromStdin.code]).toEqual([0, 0]);
    expect((await withStdin('edited\n', 'task', 'edit', 'f', '--description-file', '-')).code).toBe(0);
    const store = await TaskStore.open(repo.root);
    expect(store.get('s')?.description).toBe(long);
    expect(store.get('f')?.description).toBe('edited\n');
    expect(errorLine(missing)).toBe('teamd: error: --description-file: cannot read missing.md: ENOENT');
    expect(errorLine(both)).toBe('teamd: error: give --description or --description-file, not both');
  });
});

describe('failed tasks in task ls and status', () => {
  it('lists failed tasks with the reason and the next step; dependants name the failed blocker', async () => {
    await failedTask('parser', 'tests fail: 3 of 40');
    await TaskStore.open(repo.root).then((s) => s.create({ id: 'docs', subject: 'Document it', blockedBy: ['parser'] }));
    const ls = await at('task', 'ls');
    expect(ls.stdout).toMatch(/docs\s+blocked\s+-\s+failed parser \(teamd task retry parser\)\s+Document it/);
    const status = await at('status');
    expect(status.code).toBe(0);
    expect(status.stdout).toContain('1 failed');
    // Its counters are since the daemon started, and it says so (top and cost are all time).
    expect(status.stdout).toMatch(/TURNS\s+TOKENS IN\/OUT\s+COST/);
    expect(status.stdout).toContain('(turns, tokens and cost since the daemon started;');
    expect(status.stdout).toContain(
      '  failed:\n    parser subject of parser — tests fail: 3 of 40; next: teamd task retry parser (details: teamd task show parser)',
    );
    expect(status.stdout).toContain('docs [pending] Document it — blocked by failed parser (`teamd task retry parser`)');
    const json = JSON.parse((await at('status', '--json')).stdout) as { tasks: { list: { id: string; reason: string | null }[] } };
    expect(json.tasks.list.map((t) => [t.id, t.reason])).toEqual(
      expect.arrayContaining([['parser', 'tests fail: 3 of 40'], ['docs', null]]),
    );
  });
});
