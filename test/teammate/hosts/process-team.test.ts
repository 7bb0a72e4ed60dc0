/**
 * Teammates as child processes (`host: process`): real processes speaking
 * JSON lines, real git, the scripted model in the lead.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { readEvents } from '../../../src/observe/event-log.js';
import { processAlive } from '../../../src/tools/process-group.js';
import { genericTaskScript, makeTeamRepo, startLead, teamPerTest, until } from '../../e2e/support/harness.js';
import { slowTaskScript } from './support/slow-task.js';
import { teamdLogs } from './support/teamd-logs.js';

const team = teamPerTest();
const DAG: Record<string, string[]> = { t1: [], t2: [], t3: ['t1'], t4: ['t2', 't3'] };

const pidOf = (dir: string, name: string): number =>
  JSON.parse(readFileSync(join(dir, '.team', 'state', 'agents', `${name}.json`), 'utf8')).pid as number;

it('a team of process teammates completes a DAG, merged, and leaves no process behind at stop', async () => {
  const repo = team.repo(
    makeTeamRepo({ script: genericTaskScript(), config: { host: { kind: 'process' }, teammates: [{ name: 'ann' }, { name: 'bob' }] } }),
  );
  for (const [id, deps] of Object.entries(DAG)) repo.writeTask(id, { subject: `make ${id}`, blockedBy: deps });
  const { lead } = await startLead(repo);
  team.lead(lead);
  await until(lead, () => lead.tasks.list().filter((t) => t.status === 'completed').length === 4, 60_000, 'all 4 tasks completed');
  const pids = ['ann', 'bob'].map((n) => pidOf(repo.dir, n));
  expect(pids.every((p) => p !== process.pid && processAlive(p))).toBe(true);
  const completed = readEvents(repo.dir).filter((e) => e.type === 'task_completed').map((e) => (e as { task: string }).task);
  expect(completed.sort()).toEqual(Object.keys(DAG));
  await until(lead, () => repo.git('ls-tree', '--name-only', 'teamd/integration', 'out/').trim().split('\n').length === 4, 30_000, 'merged');
  await lead.stop('test over');
  expect(pids.filter((p) => processAlive(p))).toEqual([]);
  // Their transcripts were written by the lead, in its repository, and `teamd logs` reads them.
  const logs = await teamdLogs(repo.dir, 'ann');
  expect(logs.code, logs.stderr).toBe(0);
  expect(logs.lines.some((l) => /wrote out\/t\d\.txt/.test(l))).toBe(true);
}, 90_000);

it('a teammate process killed mid-task is a crash: task reclaimed, teammate restarted, task completed once', async () => {
  const repo = team.repo(
    makeTeamRepo({
      script: slowTaskScript('attempted'),
      config: { host: { kind: 'process' }, teammates: [{ name: 'ann' }], worktrees: { mode: 'off' }, permissions: { defaultMode: 'bypassPermissions' } },
    }),
  );
  repo.writeTask('slow', { subject: 'a slow task' });
  const started = await startLead(repo, { idleRecheckMs: 300 });
  const lead = team.lead(started.lead);
  await until(lead, () => existsSync(join(repo.dir, 'attempted')), 30_000, 'the first attempt to start');
  const pid = pidOf(repo.dir, 'ann');
  process.kill(pid, 'SIGKILL');
  // the teammate writes the task file, then sends its event over the channel: the lead can see the file first
  const completions = (): number => started.events.filter((e) => e.type === 'task_completed').length;
  await until(lead, () => lead.tasks.get('slow')?.status === 'completed' && completions() > 0, 60_000, 'the task to complete');
  expect(lead.tasks.get('slow')!.result?.summary).toContain('second attempt');
  expect(started.events.some((e) => e.type === 'teammate_crashed' && e.agent === 'ann')).toBe(true);
  expect(completions()).toBe(1);
  expect(pidOf(repo.dir, 'ann')).not.toBe(pid);
}, 90_000);
