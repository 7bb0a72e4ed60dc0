/** Every loop has a bound: a plan rejected `maxAttempts` times fails the task instead of asking for ever. */
import { expect, it } from 'vitest';
import { MailboxStore } from '../../src/store/mailbox/index.js';
import { answerRequest, listRequests } from '../../src/teammate/requests.js';
import { makeTeamRepo, startLead, teamPerTest, until } from './support/harness.js';

const team = teamPerTest();

it('a plan rejected maxAttempts times fails the task with the last reason', async () => {
  const repo = team.repo(
    makeTeamRepo({
      script: {
        rules: [
          { conversation: 'Task planned:', match: 'Stop now', content: [{ type: 'text', text: 'stopping as told' }] },
          { conversation: 'Task planned:', times: 'always', content: [{ type: 'tool_use', name: 'team', input: { do: 'plan', text: 'rewrite everything' } }] },
        ],
      },
      config: { teammates: [{ name: 'ann', planMode: true }], maxAttempts: 3, worktrees: { mode: 'off' } },
    }),
  );
  repo.writeTask('planned', { subject: 'a planned change' });
  const { lead, events } = await startLead(repo);
  team.lead(lead);
  const mailbox = new MailboxStore(repo.dir);
  for (let n = 1; n <= 3; n++) {
    await until(lead, () => listRequests(repo.dir, 'pending').length === 1, 60_000, `plan request ${n}`);
    const req = listRequests(repo.dir, 'pending')[0]!;
    expect((await answerRequest(repo.dir, mailbox, req.id, { approve: false, by: 'user', reason: `too big (${n})` })).ok).toBe(true);
  }
  await until(lead, () => lead.tasks.get('planned')?.status === 'failed', 60_000, 'the task to fail');
  expect(lead.tasks.get('planned')!.result?.error).toContain('plan rejected 3 times (last: too big (3))');
  await until(lead, () => lead.pool.stateOf('ann')?.state === 'idle', 30_000, 'ann idle');
  expect(listRequests(repo.dir).filter((r) => r.kind === 'plan')).toHaveLength(3);
  expect(events.some((e) => e.type === 'task_failed' && e.task === 'planned')).toBe(true);
}, 90_000);
