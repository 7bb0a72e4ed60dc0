/**
 * Fault 1, kill the daemon: a DAG of tasks on the scripted model, whose tools
 * really write files that are committed in per-task worktrees and merged, run
 * by the real CLI (`teamd start --foreground`) in a child process that is
 * SIGKILLed at a random moment and started again, over and over. At the end:
 * every task completed exactly once and merged once, every team file parses,
 * no lock is stuck, the integration branch holds each task's change once, no
 * worktree holds unmerged work, and no process is left over.
 * Reduced (npm test): 12 tasks, 3 kills. Full (npm run test:faults): 200 tasks, 20 kills.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { readEvents } from '../../src/observe/event-log.js';
import { tryWithLock } from '../../src/store/lock.js';
import { spawnCli, waitForOutput, type CliRun } from '../e2e/support/cli.js';
import { genericTaskScript, makeTeamRepo, startLead, until, type TeamRepo } from '../e2e/support/harness.js';
import { killedWorktreeAdd } from '../git/killed-worktree-add.js';
import { leftoverLocks, tasksOnDisk, unparsableTeamFiles, untilFiles } from './support/files.js';
import { processesInside, teammatesIdle, untilNoProcessInside } from './support/processes.js';
import { budget, SEED, seededRandom, sized } from './support/scale.js';

const TASKS = sized(200, 12);
const KILLS = sized(20, 3);
const MAX_KILL_DELAY_MS = 1_500;

let repo: TeamRepo | undefined;
const runs: CliRun[] = [];
afterEach(() => {
  for (const r of runs.splice(0))
    if (r.child.exitCode === null && r.child.signalCode === null) r.child.kill('SIGKILL');
  repo?.cleanup();
});

/** t1…tN, each blocked by up to two earlier tasks (seeded). */
function writeDag(r: TeamRepo, random: () => number): string[] {
  const ids = Array.from({ length: TASKS }, (_, i) => `t${i + 1}`);
  ids.forEach((id, i) => {
    const blockedBy = new Set<string>();
    for (let k = 0; k < 2 && i > 0; k++) if (random() < 0.4) blockedBy.add(ids[Math.floor(random() * i)]!);
    r.writeTask(id, { subject: `make ${id}`, blockedBy: [...blockedBy] });
  });
  return ids;
}

const start = (dir: string): CliRun => {
  const run = spawnCli(['start', '--foreground', '--dir', dir]);
  runs.push(run);
  return run;
};

const worktreesOf = (r: TeamRepo): string[] =>
  r
    .git('worktree', 'list', '--porcelain')
    .split('\n')
    .filter((l) => l.startsWith('worktree '))
    .map((l) => l.slice('worktree '.length));

const completedCount = (dir: string): number =>
  [...tasksOnDisk(dir).values()].filter((t) => t.status === 'completed').length;

it(
  `SIGKILLed ${KILLS} times at random moments: ${TASKS} tasks completed once, merged once, nothing torn or left over (seed ${SEED})`,
  async () => {
    const random = seededRandom();
    const r = (repo = makeTeamRepo({
      script: genericTaskScript(),
      config: {
        teammates: [{ name: 'ann' }, { name: 'bob' }],
        worktrees: { mode: 'per-task' },
        maxAttempts: 1_000,
      },
    }));
    const ids = writeDag(r, random);
    const allDone = () => completedCount(r.dir) === ids.length;

    let kills = 0;
    while (kills < KILLS && !allDone()) {
      const run = start(r.dir);
      await waitForOutput(run, /lead started/, 60_000);
      const before = completedCount(r.dir);
      await untilFiles(
        () => allDone() || completedCount(r.dir) > before,
        120_000,
        'progress before the next kill',
      );
      if (allDone()) break;
      await new Promise((resolve) => setTimeout(resolve, random() * MAX_KILL_DELAY_MS)); // the random moment
      run.child.kill('SIGKILL');
      await run.exited;
      kills++;
    }

    const last = start(r.dir);
    await waitForOutput(last, /lead started/, 60_000);
    await untilFiles(allDone, budget(1_200_000, 120_000), 'every task to be completed');
    // The CLI handles SIGTERM only once Lead.start has returned (idle teammates come later); and with
    // no git running, the graceful stop is the only thing measured here.
    const quiet = () =>
      teammatesIdle(join(r.dir, '.team', 'state', 'agents'), ['ann', 'bob'], last.child.pid!) &&
      processesInside(r.dir, [last.child.pid!]).length === 0;
    await untilFiles(quiet, 60_000, 'idle teammates and no git running');
    const how = new Promise<string>((res) =>
      last.child.once('exit', (code, signal) => res(`${code}/${signal}`)),
    );
    last.child.kill('SIGTERM');
    expect(await how, last.output()).toBe('0/null');

    // Completed once: the files say completed, and no task was reported completed twice.
    const tasks = tasksOnDisk(r.dir);
    expect(ids.filter((id) => tasks.get(id)?.status !== 'completed')).toEqual([]);
    const completions = readEvents(r.dir)
      .filter((e) => e.type === 'task_completed')
      .map((e) => (e as { task: string }).task);
    expect(ids.filter((id) => completions.filter((c) => c === id).length > 1)).toEqual([]);
    // Merged once, and the integration branch has each task's change once.
    const merges = r.git('log', '--merges', '--format=%s', 'teamd/integration').split('\n');
    expect(
      ids.filter((id) => merges.filter((m) => m === `Merge task ${id}: make ${id}`).length !== 1),
    ).toEqual([]);
    for (const id of ids) {
      expect(r.git('show', `teamd/integration:out/${id}.txt`)).toBe(`done ${id}\n`);
      expect(
        r
          .git('log', '--no-merges', '--format=%H', 'teamd/integration', '--', `out/${id}.txt`)
          .trim()
          .split('\n'),
        id,
      ).toHaveLength(1);
    }
    // Nothing torn. No lock stuck: a team-file lock left by a killed process is stale and the next writer
    // takes it over; git's own locks must not be left at all.
    expect(unparsableTeamFiles(r.dir)).toEqual([]);
    const locks = leftoverLocks(r.dir);
    expect(locks.filter((l) => !/^\.(tasks|mailboxes|cron)\//.test(l))).toEqual([]);
    for (const lock of locks) {
      const file = join(r.dir, dirname(dirname(lock)), basename(lock)); // <dir>/.locks/<name> locks <dir>/<name>
      expect((await tryWithLock(file, async () => 'taken')).ok, `${lock} can be taken over`).toBe(true);
    }
    // No worktree left but the merge queue's own.
    expect(worktreesOf(r).filter((w) => w !== r.dir && !w.endsWith('/.worktrees/.merge'))).toEqual([]);
    expect(await untilNoProcessInside(r.dir, 10_000)).toEqual([]);
    console.log(
      `kill-daemon: ${kills} kills, ${ids.length} tasks, ${completions.length} completion events, ${locks.length} stale locks taken over, seed ${SEED}`,
    );
  },
  budget(3_600_000, 240_000),
);

// A task's worktree is removed after its task file says completed; a kill between the two (seen in the test
// above) leaves it. That state is rebuilt here exactly, and the next lead must tidy it up at start.
/** A one-teammate team whose t1 a first lead merged (and removed its worktree); that lead is stopped. */
async function oneTaskMerged(): Promise<TeamRepo> {
  const r = (repo = makeTeamRepo({
    script: genericTaskScript(),
    config: { teammates: [{ name: 'ann' }], worktrees: { mode: 'per-task' } },
  }));
  r.writeTask('t1', { subject: 'make t1' });
  const first = await startLead(r);
  try {
    await until(
      first.lead,
      () =>
        tasksOnDisk(r.dir).get('t1')?.status === 'completed' && !existsSync(join(r.dir, '.worktrees', 't1')),
      60_000,
      't1 merged and its worktree removed',
    );
  } finally {
    await first.lead.stop('crash state next');
  }
  return r;
}

it('at boot, the lead removes the worktree a crash left behind for a task already merged', async () => {
  const r = await oneTaskMerged();
  // What a kill between completion and removal leaves: the worktree, on its branch (deleted only after the removal).
  const commit = tasksOnDisk(r.dir).get('t1')!.result!.commit!;
  r.git('worktree', 'add', '-b', 'teamd/t1', join(r.dir, '.worktrees', 't1'), commit);
  writeFileSync(join(r.dir, '.worktrees', 't1', 'half-done.txt'), 'an edit of an attempt cut by the kill\n'); // and it is dirty
  const second = await startLead(r);
  try {
    await until(
      second.lead,
      () => !existsSync(join(r.dir, '.worktrees', 't1')),
      10_000,
      'the leftover worktree to be removed',
    );
    expect(worktreesOf(r).filter((w) => w !== r.dir && !w.endsWith('/.worktrees/.merge'))).toEqual([]);
    expect(r.git('branch', '--list', 'teamd/t1').trim()).toBe(''); // merged, so its branch goes too
  } finally {
    await second.lead.stop('test over');
  }
}, 120_000);

// A kill of the daemon's process group while it made a task's worktree: git registered it on its branch
// and died before the checkout (killed-worktree-add.ts). Adopted as it was, the task's commit recorded
// every file it lacked as deleted, and the merge took earlier tasks' files off the integration branch
// (their merge commits still there): the integration branch must keep them.
it('a worktree whose making a kill cut short is checked out again: the task merges only its own change', async () => {
  const r = await oneTaskMerged();
  killedWorktreeAdd((args) => r.git(...args), r.dir, 't2', 'teamd/integration');
  r.writeTask('t2', { subject: 'make t2' });
  const second = await startLead(r);
  try {
    await until(second.lead, () => tasksOnDisk(r.dir).get('t2')?.status === 'completed', 60_000, 't2 merged');
  } finally {
    await second.lead.stop('test over');
  }
  expect(r.git('show', 'teamd/integration:out/t1.txt')).toBe('done t1\n');
  expect(r.git('show', 'teamd/integration:out/t2.txt')).toBe('done t2\n');
  expect(r.git('diff', '--name-status', 'teamd/integration^1', 'teamd/integration').trim()).toBe('A\tout/t2.txt');
}, 120_000);
