// A team whose teammate runs over ssh on "another machine": a real sshd on 127.0.0.1, logged into as
// another local user with its own home and clone. The task runs there (the file says who and where
// wrote it), its branch comes back and merges; a dropped connection mid-task is a crash: the task is
// reclaimed and finished once, and the lead leaves nothing running on the remote at stop.
import { chownSync, existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { teamIdOf } from '../../src/teammate/hosts/ssh/carry.js';
import { processesUnder } from '../support/remote-user.js';
import { makeTeamRepo, startLead, teamPerTest, until } from '../e2e/support/harness.js';
import { sshServerPerFile } from './support/ssh-team.js';
import { waitFor } from '../store/temp-repo.js';
import { teamdLogs } from '../teammate/hosts/support/teamd-logs.js';

const team = teamPerTest();
const server = sshServerPerFile('team');

const bash = (command: string) => [{ type: 'tool_use' as const, name: 'bash', input: { command } }];
const text = (t: string) => [{ type: 'text' as const, text: t }];
const teamConfig = () => ({
  host: server.remote.host,
  teammates: [{ name: 'ann' }],
  permissions: { defaultMode: 'bypassPermissions' },
});

it('the task runs in the remote user\'s clone, its branch comes back and merges', async (ctx) => {
  const { sshd, remote } = server;
  if (!sshd.ok) return ctx.skip(sshd.reason);
  const script = {
    rules: [
      { conversation: 'Task t1:', turn: 0, content: bash('mkdir -p out && echo "$(id -un) $PWD" > out/t1.txt') },
      { conversation: 'Task t1:', turn: 1, content: text('wrote out/t1.txt') },
    ],
  };
  const repo = team.repo(makeTeamRepo({ script, config: teamConfig() }));
  repo.writeTask('t1', { subject: 'write t1' });
  const { lead, events } = await startLead(repo);
  team.lead(lead);
  await until(lead, () => lead.tasks.get('t1')?.status === 'completed', 60_000, 't1 completed');
  const [who, where] = repo.git('show', 'teamd/integration:out/t1.txt').trim().split(' ');
  expect(who).toBe(sshd.user.name);
  expect(where!.startsWith(`${remote.remoteDir}/`)).toBe(true); // the remote's own clone, not the lead's worktree
  expect(where!.startsWith(repo.dir)).toBe(false);
  expect(repo.git('log', '--format=%an', '-1', 'teamd/integration', '--', 'out/t1.txt').trim()).toBe('ann');
  expect(events.filter((e) => e.type === 'task_completed').length).toBe(1);
  await lead.stop('test over');
  await waitFor(() => processesUnder(sshd.user.name, remote.remoteDir).length === 0, 'no remote process left', 20_000);
  // The transcript is the lead's: in its repository, read by `teamd logs`, and nowhere on the remote.
  const logs = await teamdLogs(repo.dir, 'ann');
  expect(logs.code, logs.stderr).toBe(0);
  expect(logs.lines).toContain('wrote out/t1.txt');
  expect(filesNamed(remote.remoteDir, '.jsonl')).toEqual([]);
}, 90_000);

/** The files under `dir` whose name ends with `suffix` (none when `dir` is gone). */
function filesNamed(dir: string, suffix: string): string[] {
  if (!existsSync(dir)) return [];
  return (readdirSync(dir, { recursive: true }) as string[]).filter((f) => f.endsWith(suffix));
}

it('a dropped connection mid-task is a crash: the task is reclaimed and finished once', async (ctx) => {
  const { sshd, remote } = server;
  if (!sshd.ok) return ctx.skip(sshd.reason);
  // The model is the lead's (shared by every run of the teammate): its first answer is a long command, the next a quick one.
  const nap = `sleep ${60 + (process.pid % 97)}`;
  const script = {
    rules: [
      { conversation: 'Task slow:', turn: 0, times: 1, content: bash(`echo first-attempt > started.txt; ${nap}`) },
      { conversation: 'Task slow:', turn: 0, times: 'always' as const, content: bash('echo second-attempt') },
      { conversation: 'Task slow:', turn: 1, match: 'second-attempt', content: text('finished on the second attempt') },
    ],
  };
  const repo = team.repo(makeTeamRepo({ script, config: teamConfig() }));
  repo.writeTask('slow', { subject: 'a slow task' });
  const { lead, events } = await startLead(repo, { idleRecheckMs: 300 });
  team.lead(lead);
  const user = sshd.user.name;
  await until(lead, () => processesUnder(user, remote.remoteDir).some((p) => p.includes(nap)), 60_000, 'the first attempt to run on the remote');
  expect(sshd.dropConnections()).toBeGreaterThan(0);
  await until(lead, () => lead.tasks.get('slow')?.status === 'completed', 60_000, 'the task to complete');
  expect(lead.tasks.get('slow')!.result?.summary).toContain('second attempt');
  expect(events.some((e) => e.type === 'teammate_crashed' && e.agent === 'ann')).toBe(true);
  expect(events.filter((e) => e.type === 'task_completed').length).toBe(1);
  await lead.stop('test over');
  await waitFor(() => processesUnder(user, remote.remoteDir).length === 0, 'no remote process left (the command of the first attempt ended too)', 20_000);
}, 120_000);

it('code that cannot travel is a crash naming the ssh step, not a failed task: reclaimed until maxAttempts', async (ctx) => {
  const { sshd, remote } = server;
  if (!sshd.ok) return ctx.skip(sshd.reason);
  const script = { rules: [{ conversation: 'Task t1:', turn: 0, times: 'always' as const, content: text('never reached') }] };
  const repo = team.repo(makeTeamRepo({ script, config: { ...teamConfig(), maxAttempts: 2 } }));
  const teamDir = join(remote.remoteDir, teamIdOf(repo.dir));
  mkdirSync(teamDir, { recursive: true });
  chownSync(remote.remoteDir, sshd.user.uid, sshd.user.gid);
  chownSync(teamDir, sshd.user.uid, sshd.user.gid);
  writeFileSync(join(teamDir, 'worktrees'), 'a file where the remote keeps its worktrees\n'); // the remote cannot make one
  repo.writeTask('t1', { subject: 'write t1' });
  const { lead, events } = await startLead(repo);
  team.lead(lead);
  await until(lead, () => lead.tasks.get('t1')?.status === 'failed', 60_000, 't1 failed after its attempts');
  const crashes = events.filter((e) => e.type === 'teammate_crashed');
  expect(crashes.length).toBeGreaterThanOrEqual(2);
  expect(JSON.stringify(crashes[0])).toContain(`ssh ${sshd.target} (receive the task branch)`);
  expect(events.some((e) => e.type === 'task_failed' && /could not create the worktree/.test(JSON.stringify(e)))).toBe(false);
}, 90_000);
