/**
 * Fault 2, kill teammates: worker threads terminated at random moments while
 * they work (the lead's `killTeammate`, i.e. `worker.terminate()`, the same
 * abrupt end as a `process.exit` or an uncaught error in the thread: no
 * builtin tool runs code inside the worker, so those two cannot be caused from
 * a script); each is restarted and its task reclaimed and finished. And a
 * worker hung in an endless loop: its task is reclaimed when its lease runs
 * out, and the lead's watchdog terminates and restarts the silent thread.
 * Reduced: 8 tasks, 3 kills. Full: 40 tasks, 15 kills (more tasks are dropped when the work runs out first).
 */
import { writeFileSync } from 'node:fs';
import { afterEach, expect, it } from 'vitest';
import type { Lead } from '../../src/lead/lead.js';
import type { LoggedEvent } from '../../src/observe/types.js';
import { makeTeamRepo, startLead, until, type TeamRepo } from '../e2e/support/harness.js';
import { tasksOnDisk, untilFiles } from './support/files.js';
import { pathWithout } from './support/path-without.js';
import { budget, FULL, SEED, seededRandom, sized } from './support/scale.js';

const TASKS = sized(40, 8);
const KILLS = sized(15, 3);

let repo: TeamRepo | undefined;
let lead: Lead | undefined;
const cleanups: (() => void)[] = [];
afterEach(async () => {
  await lead?.stop('test over');
  lead = undefined;
  repo?.cleanup();
  for (const c of cleanups.splice(0)) c();
});

/** Each task: a short bash call (a window to be killed in), a real file write, a summary. */
const slowTaskScript = () => ({
  rules: [
    {
      conversation: 'Task (\\S+):',
      turn: 0,
      times: 'always' as const,
      content: [
        { type: 'tool_use' as const, name: 'bash', input: { command: 'sleep 0.3; echo working on $1' } },
      ],
    },
    {
      conversation: 'Task (\\S+):',
      turn: 1,
      times: 'always' as const,
      content: [
        {
          type: 'tool_use' as const,
          name: 'write',
          input: { file_path: 'out/$1.txt', content: 'done $1\n' },
        },
      ],
    },
    {
      conversation: 'Task (\\S+):',
      turn: 2,
      times: 'always' as const,
      content: [{ type: 'text' as const, text: 'wrote out/$1.txt' }],
    },
  ],
});

interface Kill {
  agent: string;
  /** The task the killed teammate held on disk right after the kill (null: it held none). */
  task: string | null;
}

it(
  `teammates killed ${KILLS} times at random moments: each restarted, its task reclaimed and completed once (seed ${SEED})`,
  async () => {
    const random = seededRandom();
    const r = (repo = makeTeamRepo({
      script: slowTaskScript(),
      config: {
        teammates: [{ name: 'ann' }, { name: 'bob' }],
        worktrees: { mode: 'off' },
        permissions: { defaultMode: 'bypassPermissions' },
        maxAttempts: 1_000,
      },
    }));
    const ids = Array.from({ length: TASKS }, (_, i) => `t${i + 1}`);
    ids.forEach((id, i) =>
      r.writeTask(id, {
        subject: `make ${id}`,
        blockedBy: i > 1 && random() < 0.3 ? [ids[Math.floor(random() * i)]!] : [],
      }),
    );
    const started = await startLead(r);
    const l = (lead = started.lead);
    const events: LoggedEvent[] = started.events;
    const allDone = () => ids.every((id) => tasksOnDisk(r.dir).get(id)?.status === 'completed');

    const kills: Kill[] = [];
    while (kills.length < KILLS) {
      if (allDone()) {
        if (!FULL) break;
        // The team outran the kills: more work, so every planned kill lands on a working teammate.
        const more = Array.from({ length: 10 }, (_, i) => `t${ids.length + i + 1}`);
        more.forEach((id) => r.writeTask(id, { subject: `make ${id}` }));
        ids.push(...more);
      }
      await until(
        l,
        () => allDone() || l.pool.names().some((n) => l.pool.stateOf(n)?.state === 'working'),
        60_000,
        'a working teammate',
      );
      if (allDone()) break;
      await new Promise((resolve) => setTimeout(resolve, random() * 400)); // the random moment
      const working = l.pool.names().filter((n) => l.pool.stateOf(n)?.state === 'working');
      const agent = working[Math.floor(random() * working.length)] ?? l.pool.names()[0]!;
      const restartsBefore = events.filter(
        (e) => e.type === 'teammate_restarted' && e.agent === agent,
      ).length;
      await l.killTeammate(agent);
      const held = [...tasksOnDisk(r.dir).values()].find(
        (t) => t.status === 'in_progress' && t.owner === agent,
      );
      kills.push({ agent, task: held?.id ?? null });
      await until(
        l,
        () =>
          events.filter((e) => e.type === 'teammate_restarted' && e.agent === agent).length > restartsBefore,
        90_000,
        `${agent} to restart`,
      );
    }
    await untilFiles(allDone, budget(900_000, 90_000), 'every task to be completed');

    expect(kills.length).toBeGreaterThan(0);
    if (FULL) expect(kills.length, 'every planned kill happened before the work ran out').toBe(KILLS);
    for (const [i, k] of kills.entries()) {
      const crashes = events.filter((e) => e.type === 'teammate_crashed' && e.agent === k.agent);
      expect(crashes.length, `kill ${i} of ${k.agent}`).toBeGreaterThanOrEqual(
        kills.slice(0, i + 1).filter((x) => x.agent === k.agent).length,
      );
      if (k.task)
        expect(
          events.some((e) => e.type === 'task_reclaimed' && e.task === k.task && e.previousOwner === k.agent),
          `${k.task} reclaimed from ${k.agent}`,
        ).toBe(true);
    }
    const tasks = tasksOnDisk(r.dir);
    for (const k of kills) if (k.task) expect(tasks.get(k.task)!.attempts, k.task).toBeGreaterThanOrEqual(1);
    const completions = events
      .filter((e) => e.type === 'task_completed')
      .map((e) => (e as { task: string }).task);
    // Completed once: never two completion reports. A worker terminated between writing `completed` and
    // posting its event leaves none (the file is the truth), so a missing report is counted, not failed.
    const reports = (id: string) => completions.filter((c) => c === id).length;
    expect(ids.filter((id) => reports(id) > 1)).toEqual([]);
    expect(ids.filter((id) => tasks.get(id)?.status !== 'completed')).toEqual([]);
    const unreported = ids.filter((id) => reports(id) === 0);
    console.log(
      `kill-teammates: ${kills.length} kills, ${ids.length} tasks, ${unreported.length} completions without an event (${unreported.join(', ')}), seed ${SEED}`,
    );
    await until(
      l,
      () => l.pool.names().every((n) => l.pool.stateOf(n)?.state === 'idle'),
      120_000,
      'every teammate back and idle',
    );
  },
  budget(1_800_000, 150_000),
);

it('a teammate hung in an endless loop: another teammate finishes its task, and the watchdog restarts it', async () => {
  // The first attempt greps with a catastrophically backtracking pattern: the worker thread spins.
  const shadow = pathWithout('rg');
  cleanups.push(shadow.cleanup);
  const previousPath = process.env.PATH;
  process.env.PATH = shadow.path; // the workers read it when they start
  cleanups.push(() => (process.env.PATH = previousPath));
  const r = (repo = makeTeamRepo({
    script: {
      rules: [
        {
          conversation: 'Task spin:',
          turn: 0,
          times: 1,
          content: [{ type: 'tool_use', name: 'grep', input: { pattern: '^(a+)+$', path: 'spin.txt' } }],
        },
        {
          conversation: 'Task spin:',
          turn: 0,
          times: 1,
          content: [{ type: 'text', text: 'finished without spinning' }],
        },
      ],
    },
    config: {
      teammates: [{ name: 'ann' }, { name: 'bob' }],
      worktrees: { mode: 'off' },
      leaseMs: 3_000,
      stallAfterMs: 3_000,
    },
  }));
  writeFileSync(`${r.dir}/spin.txt`, `${'a'.repeat(48)}b\n`);
  r.writeTask('spin', { subject: 'search a file' });
  const started = await startLead(r);
  const l = (lead = started.lead);
  await until(
    l,
    () => started.events.some((e) => e.type === 'task_claimed' && e.task === 'spin'),
    60_000,
    'the claim',
  );
  const hung = (
    started.events.find((e) => e.type === 'task_claimed' && e.task === 'spin') as { agent: string }
  ).agent;
  await untilFiles(
    () => tasksOnDisk(r.dir).get('spin')?.status === 'completed',
    60_000,
    'the task to be finished by the other teammate',
  );
  const task = tasksOnDisk(r.dir).get('spin')!;
  expect(task.attempts).toBe(1);
  expect(task.result?.summary).toBe('finished without spinning');
  expect(started.events.some((e) => e.type === 'task_reclaimed' && e.task === 'spin')).toBe(true);
  expect(
    started.events
      .filter((e) => e.type === 'task_completed' && e.task === 'spin')
      .map((e) => (e as { agent: string }).agent),
  ).not.toContain(hung);
  try {
    await until(
      l,
      () => started.events.some((e) => e.type === 'teammate_restarted' && e.agent === hung),
      30_000,
      'the watchdog to restart the hung worker',
    );
  } finally {
    if (!started.events.some((e) => e.type === 'teammate_restarted' && e.agent === hung))
      await l.killTeammate(hung); // never leave a core spinning
  }
  await until(l, () => l.pool.stateOf(hung)?.state === 'idle', 60_000, 'the restarted teammate to be idle');
}, 120_000);
