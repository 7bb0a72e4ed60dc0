import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readEvents } from '../../src/observe/event-log.js';
import { TaskStore } from '../../src/store/tasks/index.js';
import { spawnCli, waitForOutput, type CliRun } from './support/cli.js';
import { genericTaskScript, makeTeamRepo, type TeamRepo } from './support/harness.js';

let repo: TeamRepo;
const runs: CliRun[] = [];
afterEach(async () => {
  for (const r of runs.splice(0)) if (r.child.exitCode === null) r.child.kill('SIGKILL');
  repo.cleanup();
});

const start = (dir: string): CliRun => {
  const run = spawnCli(['start', '--foreground', '--dir', dir]);
  runs.push(run);
  return run;
};

describe('the daemon as a process', () => {
  it('a second `teamd start` says it is already running and exits 1; `teamd stop` stops the first', async () => {
    repo = makeTeamRepo({ script: genericTaskScript(), config: { teammates: [{ name: 'ann' }], worktrees: { mode: 'off' } } });
    const first = start(repo.dir);
    await waitForOutput(first, /lead started/);
    const second = spawnCli(['start', '--foreground', '--dir', repo.dir]);
    runs.push(second);
    expect(await second.exited).toBe(1);
    expect(second.output()).toMatch(/already running/);
    const stop = spawnCli(['stop', '--dir', repo.dir]);
    expect(await stop.exited).toBe(0);
    expect(await first.exited).toBe(0);
    expect(first.output()).toMatch(/lead stopped/);
  }, 90_000);

  it('SIGKILL mid-run, then start again: every task completed exactly once, merged once', async () => {
    repo = makeTeamRepo({
      script: genericTaskScript(),
      config: { teammates: [{ name: 'ann' }, { name: 'bob' }], worktrees: { mode: 'per-task' } },
    });
    const ids = Array.from({ length: 10 }, (_, i) => `t${i + 1}`);
    ids.forEach((id, i) => repo.writeTask(id, { subject: `make ${id}`, blockedBy: i >= 5 ? [`t${i - 4}`] : [] }));
    const first = start(repo.dir);
    await waitForOutput(first, /completed by/, 90_000);
    first.child.kill('SIGKILL');
    await first.exited;
    const second = start(repo.dir);
    const store = await TaskStore.open(repo.dir);
    await waitForOutput(second, /lead started/);
    // The lead writes a task's file, then appends its task_completed event: wait for both (the file alone can be seen first).
    const completedEvents = (): string[] =>
      readEvents(repo.dir).filter((e) => e.type === 'task_completed').map((e) => (e as { task: string }).task);
    for (let i = 0; i < 600; i++) {
      await Promise.all(ids.map((id) => store.refresh(id)));
      if (store.list().every((t) => t.status === 'completed') && completedEvents().length >= ids.length) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(store.list().map((t) => t.status)).toEqual(ids.map(() => 'completed'));
    const completions = completedEvents();
    expect(completions.sort()).toEqual([...ids].sort());
    const files = repo.git('ls-tree', '--name-only', 'teamd/integration', 'out/').trim().split('\n');
    expect(files.sort()).toEqual(ids.map((id) => `out/${id}.txt`).sort());
    // each task merged once: one merge commit per task on the integration branch
    const merges = repo.git('log', '--merges', '--format=%s', 'teamd/integration').trim().split('\n');
    for (const id of ids) expect(merges.filter((m) => m.includes(`task ${id}:`)).length, id).toBe(1);
    for (const id of ids) expect(JSON.parse(readFileSync(join(repo.dir, '.tasks', `${id}.json`), 'utf8')).status).toBe('completed');
    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
  }, 240_000);
});
