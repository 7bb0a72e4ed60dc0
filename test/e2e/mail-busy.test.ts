import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import type { Lead } from '../../src/lead/lead.js';
import { MailboxStore } from '../../src/store/mailbox/index.js';
import { makeTeamRepo, startLead, until, type TeamRepo } from './support/harness.js';

let repo: TeamRepo;
let lead: Lead | undefined;
afterEach(async () => {
  await lead?.stop('test over');
  repo.cleanup();
});

it('mail to a busy teammate reaches its conversation at the next tool boundary, within the same run', async () => {
  repo = makeTeamRepo({
    script: {
      rules: [
        { conversation: 'Task busy:', turn: 0, content: [{ type: 'tool_use', name: 'bash', input: { command: 'touch started; while [ ! -f go ]; do sleep 0.05; done; echo released' } }] },
        // Strict: this answer exists only for a turn that sees the message; without it the run fails.
        { conversation: 'Task busy:', turn: 1, match: 'PING-42', content: [{ type: 'text', text: 'got PING-42 while working' }] },
      ],
    },
    config: { teammates: [{ name: 'ann' }], worktrees: { mode: 'off' }, permissions: { defaultMode: 'bypassPermissions' } },
  });
  repo.writeTask('busy', { subject: 'wait for a file' });
  const started = await startLead(repo);
  lead = started.lead;
  const l = lead;
  // The mail is sent once the tool runs (the command says so): mail that came before the first
  // model call would simply join the task's prompt, which is another path.
  await until(l, () => existsSync(join(repo.dir, 'started')), 30_000, 'the tool to start');
  const mailbox = new MailboxStore(repo.dir);
  const sent = await mailbox.send({ from: 'user', to: 'ann', content: 'PING-42: please mention this' });
  expect(sent.ok).toBe(true);
  // Taken by the busy teammate (marked delivering), then release its tool.
  let taken = false;
  const check = () => void mailbox.peek('ann').then((inbox) => (taken = inbox.some((m) => m.deliveringSince !== undefined)));
  await until(l, () => (check(), taken), 30_000, 'the busy teammate to take the message');
  writeFileSync(join(repo.dir, 'go'), '');
  await until(l, () => l.tasks.get('busy')?.status !== 'in_progress', 30_000, 'the task to finish');
  expect(l.tasks.get('busy')?.status).toBe('completed');
  expect(l.tasks.get('busy')?.result?.summary).toContain('PING-42');
  // Acknowledged: archived first, then removed from the inbox (the ack's two steps, in that order).
  await until(l, () => existsSync(join(repo.dir, '.mailboxes', 'archive', 'ann.jsonl')), 10_000, 'the archive');
  let left = -1;
  const count = () => void mailbox.peek('ann').then((inbox) => (left = inbox.length));
  await until(l, () => (count(), left === 0), 10_000, 'the inbox to be empty');
  expect((await mailbox.history('ann')).filter((m) => m.content.includes('PING-42'))).toHaveLength(1);
}, 120_000);
