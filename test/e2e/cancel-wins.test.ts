/**
 * Cancel wins everywhere: a task cancelled with the real CLI (another
 * process) while in progress, while queued for merge, while merging, and
 * while the lead is down, is never merged, and its worktree goes.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import type { Lead } from '../../src/lead/lead.js';
import type { LoggedEvent } from '../../src/observe/types.js';
import { spawnCli } from './support/cli.js';
import { makeTeamRepo, startLead, teamPerTest, until, type TeamRepo } from './support/harness.js';

const team = teamPerTest();
const STATE = '../../.team/state';

async function cancel(repo: TeamRepo, id: string): Promise<void> {
  const run = spawnCli(['task', 'cancel', id, '--dir', repo.dir]);
  expect(await run.exited, run.output()).toBe(0);
}

/** Entries of the merge queue's file, as `id → state`. */
function queueStates(repo: TeamRepo): Record<string, string> {
  const file = join(repo.dir, '.team', 'state', 'merge-queue.json');
  if (!existsSync(file)) return {};
  try {
    const entries = (JSON.parse(readFileSync(file, 'utf8')) as { entries: { taskId: string; state: string }[] }).entries;
    return Object.fromEntries(entries.map((e) => [e.taskId, e.state]));
  } catch {
    return {};
  }
}

const onIntegration = (repo: TeamRepo, path: string): boolean => repo.git('ls-tree', '-r', '--name-only', 'teamd/integration').split('\n').includes(path);
const merges = (events: LoggedEvent[]) => events.filter((e) => e.type === 'merge_merged' || (e.type === 'notice' && /could not complete/.test(e.message)));

function writeScript(): Parameters<typeof makeTeamRepo>[0]['script'] {
  return {
    rules: [
      // Task `slow` hangs in bash until it is interrupted.
      { name: 'hang', conversation: 'Task slow:', turn: 0, times: 'always', content: [{ type: 'tool_use', name: 'bash', input: { command: `touch ${STATE}/working; sleep 60` } }] },
      { name: 'write', conversation: 'Task (\\S+):', turn: 0, times: 'always', content: [{ type: 'tool_use', name: 'write', input: { file_path: 'out/$1.txt', content: 'done $1\n' } }] },
      { name: 'report', conversation: 'Task (\\S+):', turn: 1, times: 'always', content: [{ type: 'text', text: 'wrote out/$1.txt' }] },
    ],
  };
}

function gatedRepo(): TeamRepo {
  const verify = `touch ${STATE}/verifying; while [ ! -f ${STATE}/go ]; do sleep 0.05; done`;
  return makeTeamRepo({
    script: writeScript(),
    config: { teammates: [{ name: 'ann' }, { name: 'bob' }], worktrees: { mode: 'per-task', verify }, permissions: { defaultMode: 'bypassPermissions' } },
  });
}

it('cancelled in progress: the run stops, nothing is merged, the worktree goes', async () => {
  const repo = team.repo(makeTeamRepo({ script: writeScript(), config: { teammates: [{ name: 'ann' }], worktrees: { mode: 'per-task' }, permissions: { defaultMode: 'bypassPermissions' } } }));
  repo.writeTask('slow', { subject: 'hang' });
  const { lead, events } = await startLead(repo);
  team.lead(lead);
  await until(lead, () => existsSync(join(repo.dir, '.team', 'state', 'working')), 30_000, 'the task to be worked on');
  await cancel(repo, 'slow');
  await until(lead, () => lead.pool.stateOf('ann')?.state === 'idle' && !existsSync(join(repo.dir, '.worktrees', 'slow')), 30_000, 'the run to stop and the worktree to go');
  expect(lead.tasks.get('slow')?.status).toBe('cancelled');
  expect(merges(events)).toEqual([]);
  expect(queueStates(repo).slow).toBeUndefined();
}, 60_000);

it('cancelled while queued behind a merge, and while merging: neither is merged, both worktrees go', async () => {
  const repo = team.repo(gatedRepo());
  repo.writeTask('a', { subject: 'a' });
  repo.writeTask('b', { subject: 'b' });
  const { lead, events } = await startLead(repo);
  team.lead(lead);
  const states = () => Object.values(queueStates(repo)).sort().join(',');
  await until(lead, () => states() === 'merging,queued', 60_000, 'one task merging, one queued');
  const q = queueStates(repo);
  const merging = Object.keys(q).find((id) => q[id] === 'merging')!;
  const queued = Object.keys(q).find((id) => q[id] === 'queued')!;
  await cancel(repo, queued);
  await until(lead, () => queueStates(repo)[queued] === 'cancelled', 20_000, 'the queued entry to be cancelled');
  expect(queueStates(repo)[merging]).toBe('merging');
  await cancel(repo, merging);
  await until(lead, () => queueStates(repo)[merging] === 'cancelled', 20_000, 'the merge to be aborted');
  await until(lead, () => !existsSync(join(repo.dir, '.worktrees', 'a')) && !existsSync(join(repo.dir, '.worktrees', 'b')), 20_000, 'the worktrees to go');
  writeFileSync(join(repo.dir, '.team', 'state', 'go'), '');
  expect(onIntegration(repo, 'out/a.txt') || onIntegration(repo, 'out/b.txt')).toBe(false);
  expect(merges(events)).toEqual([]);
  expect(['a', 'b'].map((id) => lead.tasks.get(id)?.status)).toEqual(['cancelled', 'cancelled']);
}, 120_000);

it('cancelled while the lead is down (one queued for merge, one pending): never merged, never claimed', async () => {
  const repo = team.repo(gatedRepo());
  repo.writeTask('a', { subject: 'a' });
  const first = await startLead(repo);
  let lead: Lead = first.lead;
  await until(lead, () => queueStates(repo).a === 'merging', 60_000, 'a to be merging');
  await lead.stop('restart');
  expect(queueStates(repo).a).toBe('queued');
  repo.writeTask('p', { subject: 'pending one' });
  await cancel(repo, 'a');
  await cancel(repo, 'p');
  writeFileSync(join(repo.dir, '.team', 'state', 'go'), '');
  const second = await startLead(repo);
  lead = team.lead(second.lead);
  await until(lead, () => queueStates(repo).a === 'cancelled' && !existsSync(join(repo.dir, '.worktrees', 'a')), 20_000, 'a to leave the queue');
  expect(onIntegration(repo, 'out/a.txt')).toBe(false);
  expect(merges([...first.events, ...second.events])).toEqual([]);
  expect(second.events.some((e) => e.type === 'task_claimed' && e.task === 'p')).toBe(false);
  expect(lead.tasks.get('p')?.status).toBe('cancelled');
}, 120_000);
