import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Lead } from '../../src/lead/lead.js';
import { MailboxStore } from '../../src/store/mailbox/index.js';
import { answerRequest, listRequests } from '../../src/teammate/requests.js';
import { makeTeamRepo, startLead, until, type TeamRepo } from './support/harness.js';

let repo: TeamRepo;
let lead: Lead | undefined;
afterEach(async () => {
  await lead?.stop('test over');
  repo.cleanup();
});

const shutdownRequest = (id: string) => ({
  from: 'lead',
  to: 'ann',
  type: 'shutdown_request' as const,
  content: `<shutdown_request from="lead" request_id="${id}" reason="test" />`,
  metadata: { request_id: id, reason: 'test' },
});

describe('shutdown protocol', () => {
  it('an auto-approving teammate answers shutdown_response approve and stops', async () => {
    repo = makeTeamRepo({ script: { rules: [] }, config: { teammates: [{ name: 'ann' }, { name: 'bob' }], worktrees: { mode: 'off' } } });
    const started = await startLead(repo);
    lead = started.lead;
    const l = lead;
    await until(l, () => l.pool.stateOf('ann')?.state === 'idle', 30_000, 'ann idle');
    await new MailboxStore(repo.dir).send(shutdownRequest('sd-1'));
    await until(l, () => l.pool.stateOf('ann')?.state === 'stopped', 30_000, 'ann stopped');
    const history = await new MailboxStore(repo.dir).history('lead');
    await until(l, () => started.events.some((e) => e.type === 'message_delivered' && e.to === 'lead'), 10_000, 'the response to reach the lead');
    const all = [...history, ...(await new MailboxStore(repo.dir).history('lead'))];
    const response = all.find((m) => m.type === 'shutdown_response');
    expect(response?.metadata).toMatchObject({ request_id: 'sd-1', approve: true });
    await until(l, () => l.pool.stateOf('bob')?.state === 'idle', 30_000, 'bob, who was not asked, to keep running');
  });

  it('a teammate whose model rejects keeps running and says why', async () => {
    repo = makeTeamRepo({
      script: {
        rules: [
          {
            conversation: 'You have new messages',
            match: 'request_id="([^"]+)"',
            content: [{ type: 'tool_use', name: 'team', input: { do: 'shutdown', id: '$1', approve: false, text: 'in the middle of something' } }],
          },
          { conversation: 'You have new messages', afterTool: 'team', content: [{ type: 'text', text: 'Told the lead I keep going.' }] },
        ],
      },
      config: { teammates: [{ name: 'ann', autoApproveShutdown: false }], worktrees: { mode: 'off' } },
    });
    const started = await startLead(repo);
    lead = started.lead;
    const l = lead;
    await until(l, () => l.pool.stateOf('ann')?.state === 'idle', 30_000, 'ann idle');
    await new MailboxStore(repo.dir).send(shutdownRequest('sd-2'));
    await until(l, () => started.events.some((e) => e.type === 'message_sent' && e.from === 'ann' && e.messageType === 'shutdown_response'), 30_000, 'the rejection');
    await until(l, () => l.pool.stateOf('ann')?.state === 'idle', 30_000, 'ann idle again');
    const history = await new MailboxStore(repo.dir).history('lead');
    const pending = await new MailboxStore(repo.dir).peek('lead');
    const response = [...history, ...pending].find((m) => m.type === 'shutdown_response');
    expect(response?.metadata).toMatchObject({ request_id: 'sd-2', approve: false, reason: 'in the middle of something' });
  });
});

describe('plan approval', () => {
  it('refuses edits until the plan is approved, then lets them through', async () => {
    repo = makeTeamRepo({
      script: {
        rules: [
          { conversation: 'Task planned:', turn: 0, content: [{ type: 'tool_use', name: 'write', input: { file_path: 'early.txt', content: 'too early' } }] },
          { conversation: 'Task planned:', turn: 1, match: 'needs an approved plan', content: [{ type: 'tool_use', name: 'team', input: { do: 'plan', text: 'write planned.txt' } }] },
          { conversation: 'Task planned:', turn: 2, match: 'Plan approved', content: [{ type: 'tool_use', name: 'write', input: { file_path: 'planned.txt', content: 'after approval' } }] },
          { conversation: 'Task planned:', turn: 3, content: [{ type: 'text', text: 'wrote planned.txt after approval' }] },
        ],
      },
      config: { teammates: [{ name: 'ann', planMode: true }], worktrees: { mode: 'off' } },
    });
    repo.writeTask('planned', { subject: 'a planned change' });
    const started = await startLead(repo);
    lead = started.lead;
    const l = lead;
    await until(l, () => listRequests(repo.dir, 'pending').length === 1, 30_000, 'the plan request');
    expect(existsSync(join(repo.dir, 'early.txt'))).toBe(false);
    const req = listRequests(repo.dir, 'pending')[0]!;
    expect(req.kind).toBe('plan');
    const answered = await answerRequest(repo.dir, new MailboxStore(repo.dir), req.id, { approve: true, by: 'user' });
    expect(answered.ok).toBe(true);
    await until(l, () => l.tasks.get('planned')?.status === 'completed', 30_000, 'the task');
    expect(existsSync(join(repo.dir, 'planned.txt'))).toBe(true);
  });
});

describe('permission asks', () => {
  const askScript = {
    rules: [
      { conversation: 'Task (ask\\S*):', turn: 0, times: 'always' as const, content: [{ type: 'tool_use' as const, name: 'bash', input: { command: 'touch made-by-$1' } }] },
      { conversation: 'Task ask-yes:', turn: 1, content: [{ type: 'text' as const, text: 'ran it' }] },
      { conversation: 'Task ask-late:', turn: 1, match: 'not answered within', content: [{ type: 'text' as const, text: 'nobody answered; skipped' }] },
    ],
  };

  it('an ask answered by a person lets the tool run', async () => {
    repo = makeTeamRepo({ script: askScript, config: { teammates: [{ name: 'ann' }], worktrees: { mode: 'off' }, permissions: { defaultMode: 'default' } } });
    repo.writeTask('ask-yes', { subject: 'needs permission' });
    const started = await startLead(repo);
    lead = started.lead;
    const l = lead;
    await until(l, () => listRequests(repo.dir, 'pending').length === 1, 30_000, 'the permission request');
    await until(l, () => l.pool.stateOf('ann')?.state === 'waiting', 10_000, 'ann waiting');
    const req = listRequests(repo.dir, 'pending')[0]!;
    expect(req.tool).toBe('bash');
    await answerRequest(repo.dir, new MailboxStore(repo.dir), req.id, { approve: true, by: 'user' });
    await until(l, () => l.tasks.get('ask-yes')?.status === 'completed', 30_000, 'the task');
    expect(existsSync(join(repo.dir, 'made-by-ask-yes'))).toBe(true);
  });

  it('an unanswered ask times out into a deny and the teammate carries on', async () => {
    repo = makeTeamRepo({
      script: askScript,
      config: { teammates: [{ name: 'ann' }], worktrees: { mode: 'off' }, permissions: { defaultMode: 'default' }, approvalTimeoutMs: 500 },
    });
    repo.writeTask('ask-late', { subject: 'nobody answers' });
    const started = await startLead(repo);
    lead = started.lead;
    const l = lead;
    await until(l, () => l.tasks.get('ask-late')?.status === 'completed', 30_000, 'the task');
    expect(existsSync(join(repo.dir, 'made-by-ask-late'))).toBe(false);
    expect(listRequests(repo.dir, 'expired').length).toBe(1);
    expect(started.events.some((e) => e.type === 'approval_expired')).toBe(true);
  });
});
