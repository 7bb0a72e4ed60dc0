/**
 * Budgets on by default: `teamd init` writes a team budget and a per-task
 * budget; reaching the team's pauses the team (new work stops; the event log
 * and `teamd status` say so); reaching a task's ends that run, and the task
 * fails with the reason. Real worker threads, a scripted model priced through
 * the config's `prices` (every token a dollar).
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { initTeam } from '../../src/cli/init.js';
import { pausePath } from '../../src/lead/pause-file.js';
import { readEvents } from '../../src/observe/event-log.js';
import { teamd } from '../cli/run-teamd.js';
import { tasksOnDisk } from '../faults/support/files.js';
import { genericTaskScript, makeTeamRepo, startLead, teamPerTest, until } from './support/harness.js';

const team = teamPerTest();
const DEAR = { 'scripted:': { input: 1_000_000, output: 1_000_000 } };
const HANG = {
  conversation: 'Task hang:',
  turn: 0,
  times: 'always' as const,
  content: [
    {
      type: 'tool_use' as const,
      name: 'bash',
      input: { command: 'while [ ! -f never ]; do sleep 0.05; done' },
    },
  ],
};

it('teamd init writes a team budget and a per-task budget', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'teamd-init-'));
  try {
    await initTeam(dir);
    const config = JSON.parse(readFileSync(join(dir, '.team', 'config.json'), 'utf8')) as Record<
      string,
      unknown
    >;
    expect(config).toMatchObject({ maxBudgetUsd: 20, taskBudgetUsd: 2 });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

it('the team budget reached: the team pauses, says why, and takes no new work', async () => {
  const r = team.repo(
    makeTeamRepo({
      script: genericTaskScript([HANG]),
      config: {
        teammates: [{ name: 'ann' }],
        worktrees: { mode: 'off' },
        permissions: { defaultMode: 'bypassPermissions' },
        prices: DEAR,
        maxBudgetUsd: 0.01,
      },
    }),
  );
  r.writeTask('t1', { subject: 'make t1' });
  r.writeTask('hang', { subject: 'wait', blockedBy: ['t1'] });
  const { lead } = await startLead(r);
  team.lead(lead);
  const paused = await lead.waitFor((e) => e.type === 'team_paused', 30_000);
  expect(paused).toMatchObject({ kind: 'budget' });
  expect(paused.type === 'team_paused' && paused.reason).toMatch(
    /^the team spent \$[\d.]+ of its \$0\.01 budget; it takes no new work; raise maxBudgetUsd .* `teamd resume` \(the lead reads it again\)$/,
  );
  await until(
    lead,
    () =>
      tasksOnDisk(r.dir).get('hang')?.status === 'pending' && tasksOnDisk(r.dir).get('hang')?.owner === null,
    20_000,
    'hang back on the board',
  );
  expect(tasksOnDisk(r.dir).get('t1')?.status).toBe('completed');
  expect(readEvents(r.dir).some((e) => e.type === 'team_paused')).toBe(true);
  expect((await teamd(r.dir, 'status')).stdout).toMatch(/team paused since .*: the team spent/);
}, 60_000);

it('a budget pause ends only once the budget is raised: resume reads maxBudgetUsd again, no restart', async () => {
  const config = {
    teammates: [{ name: 'ann' }],
    worktrees: { mode: 'off' },
    permissions: { defaultMode: 'bypassPermissions' },
    prices: DEAR,
    maxBudgetUsd: 0.01,
  };
  const r = team.repo(makeTeamRepo({ script: genericTaskScript([HANG]), config }));
  r.writeTask('t1', { subject: 'make t1' });
  r.writeTask('hang', { subject: 'wait', blockedBy: ['t1'] });
  const { lead, events } = await startLead(r);
  team.lead(lead);
  await lead.waitFor((e) => e.type === 'team_paused', 30_000);
  const refused = await teamd(r.dir, 'resume');
  expect(refused.code).toBe(1);
  expect(refused.stderr).toMatch(
    /^teamd: error: the team budget is still reached: the team spent \$[\d.]+ of its \$0\.01 budget; .*raise maxBudgetUsd in \.team\/config\.json, then run `teamd resume` again\n$/,
  );
  expect(existsSync(pausePath(r.dir))).toBe(true);
  // The pause file removed behind the CLI's back (or a resume racing a spend): the lead checks too.
  rmSync(pausePath(r.dir));
  await until(
    lead,
    () => events.filter((e) => e.type === 'team_paused').length === 2,
    20_000,
    'paused again',
  );
  expect(existsSync(pausePath(r.dir))).toBe(true);
  expect(events.some((e) => e.type === 'team_resumed')).toBe(false);
  expect(tasksOnDisk(r.dir).get('hang')?.status).toBe('pending');

  const configFile = join(r.dir, '.team', 'config.json');
  const onDisk = JSON.parse(readFileSync(configFile, 'utf8')) as Record<string, unknown>;
  writeFileSync(configFile, JSON.stringify({ ...onDisk, maxBudgetUsd: 1e12 }));
  const resumed = await teamd(r.dir, 'resume');
  expect(resumed.code, resumed.stderr).toBe(0);
  await lead.waitFor((e) => e.type === 'team_resumed', 20_000);
  await until(lead, () => tasksOnDisk(r.dir).get('hang')?.status === 'in_progress', 20_000, 'hang claimed');
  expect(events.filter((e) => e.type === 'team_paused')).toHaveLength(2);
}, 60_000);

it('a per-task budget ends that task run; the task fails with the reason', async () => {
  const r = team.repo(
    makeTeamRepo({
      script: genericTaskScript(),
      config: { teammates: [{ name: 'ann' }], worktrees: { mode: 'off' }, prices: DEAR, taskBudgetUsd: 0.01 },
    }),
  );
  r.writeTask('t1', { subject: 'make t1' });
  const { lead } = await startLead(r);
  team.lead(lead);
  await until(lead, () => tasksOnDisk(r.dir).get('t1')?.status === 'failed', 30_000, 't1 failed');
  expect(tasksOnDisk(r.dir).get('t1')!.result?.error).toMatch(
    /^error_max_budget_usd: spent \$[\d.]+ of a \$0\.01 budget/,
  );
}, 60_000);
