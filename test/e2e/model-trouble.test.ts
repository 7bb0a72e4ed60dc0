/**
 * Infrastructure errors pause the team, they do not burn its tasks. Real
 * worker threads, the real SDK (in the lead) against the fake Messages API on
 * 127.0.0.1, the real `teamd status` and `teamd resume` commands.
 * - A 401 pauses the team with "model authentication failed: …; … teamd
 *   resume"; the task goes back to pending with no attempt spent; `teamd
 *   status` says so; `teamd resume` starts the teammates and the work ends.
 * - An outage (429s through all of the client's retries) pauses for the
 *   backoff, resumes by itself and the task completes; a task whose every
 *   attempt meets an outage fails, after its attempts, saying why.
 */
import { existsSync } from 'node:fs';
import { expect, it } from 'vitest';
import { pausePath } from '../../src/lead/pause-file.js';
import { useFakeEndpoint } from '../support/fake-endpoint.js';
import type { FakeAnthropicServer } from '../../src/model/fake-server/types.js';
import { teamd } from '../cli/run-teamd.js';
import { tasksOnDisk } from '../faults/support/files.js';
import { genericTaskScript, makeTeamRepo, startLead, teamPerTest, until } from './support/harness.js';

const team = teamPerTest();
const RETRIES = 6; // AnthropicModel's default
const endpoint = useFakeEndpoint();
let server: FakeAnthropicServer | undefined;

async function claudeTeam(config: Record<string, unknown> = {}) {
  server = await endpoint.start({ script: genericTaskScript() });
  return team.repo(
    makeTeamRepo({
      script: genericTaskScript(),
      config: {
        model: 'claude-sonnet-5',
        teammates: [{ name: 'ann' }],
        worktrees: { mode: 'off' },
        ...config,
      },
    }),
  );
}

const status = (dir: string, id: string) => tasksOnDisk(dir).get(id)?.status;

it('a refused key pauses the team; the task waits unspent; `teamd resume` carries on', async () => {
  const r = await claudeTeam();
  server!.inject({ kind: 'auth', match: { text: 'Task t1:' } });
  r.writeTask('t1', { subject: 'make t1' });
  r.writeTask('t2', { subject: 'make t2', blockedBy: ['t1'] });
  const { lead, events } = await startLead(r);
  team.lead(lead);
  const paused = await lead.waitFor((e) => e.type === 'team_paused', 30_000);
  expect(paused).toMatchObject({ kind: 'auth' });
  expect(paused.type === 'team_paused' && paused.reason).toMatch(
    /^model authentication failed: .+; fix it and run `teamd resume`$/,
  );
  await until(lead, () => status(r.dir, 't1') === 'pending', 20_000, 't1 back on the board');
  expect(tasksOnDisk(r.dir).get('t1')!.attempts).toBe(0);
  expect(events.filter((e) => e.type === 'task_failed')).toEqual([]);

  const shown = await teamd(r.dir, 'status');
  expect(shown.stdout).toMatch(/team paused since .*: model authentication failed/);
  const resumed = await teamd(r.dir, 'resume');
  expect(resumed.code, resumed.stderr).toBe(0);
  await until(lead, () => status(r.dir, 't2') === 'completed', 60_000, 't2 completed');
  expect(status(r.dir, 't1')).toBe('completed');
  expect(events.some((e) => e.type === 'team_resumed')).toBe(true);
  expect(existsSync(pausePath(r.dir))).toBe(false);
  expect((await teamd(r.dir, 'status')).stdout).not.toMatch(/paused/);
});

it('an outage backs off and retries; only a task that meets it on every attempt fails', async () => {
  const r = await claudeTeam({ maxAttempts: 2 });
  const outage = (text: string) =>
    Array.from({ length: RETRIES + 1 }, () => ({
      kind: 'rate_limit' as const,
      retryAfterMs: 5,
      match: { text },
    }));
  server!.inject(outage('Task t1:')); // once: t1 completes on its second run
  server!.inject(Array.from({ length: 4 }, () => outage('Task t2:')).flat()); // every attempt: t2 fails
  r.writeTask('t1', { subject: 'make t1' });
  r.writeTask('t2', { subject: 'make t2', blockedBy: ['t1'] });
  const { lead, events } = await startLead(r, { outageBackoffMs: [100, 200] });
  team.lead(lead);
  await until(lead, () => status(r.dir, 't2') === 'failed', 40_000, 't2 failed').catch((err: Error) => {
    throw new Error(`${err.message}\n${events.map((e) => JSON.stringify(e)).join('\n')}`);
  });
  expect(status(r.dir, 't1')).toBe('completed');
  expect(tasksOnDisk(r.dir).get('t1')!.metadata.modelOutages).toBe(1);
  expect(tasksOnDisk(r.dir).get('t2')!.result?.error).toMatch(/rate.?limit|429/i);
  // The lead pauses for the last outage too (its log line may come just after the task failed).
  await until(
    lead,
    () => events.filter((e) => e.type === 'team_paused').length >= 3,
    10_000,
    'the third pause',
  );
  const pauses = events.filter((e) => e.type === 'team_paused');
  expect(pauses.map((e) => e.type === 'team_paused' && e.kind)).toEqual(['outage', 'outage', 'outage']);
  expect(events.filter((e) => e.type === 'team_resumed').length).toBeGreaterThanOrEqual(2);
});
