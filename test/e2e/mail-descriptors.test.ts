/**
 * Issue 24: a teammate answering mail while idle never closed the session's
 * runtime, so every mail batch left its transcript file open in the process:
 * one descriptor per batch until the soak's lead died of EMFILE after
 * ~20,000 messages (its limit was 20,000). Every batch's session must close.
 */
import { readdirSync, readlinkSync } from 'node:fs';
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

/** The descriptors of this process open on a file under `dir` (Linux: /proc/self/fd). */
function openUnder(dir: string): string[] {
  return readdirSync('/proc/self/fd').flatMap((fd) => {
    try {
      const target = readlinkSync(`/proc/self/fd/${fd}`);
      return target.startsWith(dir) ? [target] : [];
    } catch {
      return []; // closed while listed
    }
  });
}

it.skipIf(process.platform !== 'linux')('mail answered while idle leaves no transcript file open', async () => {
  repo = makeTeamRepo({
    script: { rules: [{ conversation: 'You have new messages', times: 'always', content: [{ type: 'text', text: 'Noted.' }] }] },
    config: { teammates: [{ name: 'ann' }], worktrees: { mode: 'off' } },
  });
  const started = await startLead(repo);
  lead = started.lead;
  const l = lead;
  const delivered = () => started.events.filter((e) => e.type === 'message_delivered').length;
  const idle = () => l.pool.stateOf('ann')?.state === 'idle';
  await until(l, idle, 30_000, 'ann idle');
  const mailbox = new MailboxStore(repo.dir);
  const BATCHES = 4;
  for (let i = 0; i < BATCHES; i++) {
    expect((await mailbox.send({ from: 'user', to: 'ann', content: `note ${i}` })).ok).toBe(true);
    await until(l, () => delivered() > i && idle(), 30_000, `message ${i} answered`);
  }
  const transcripts = join(repo.dir, '.team', 'state', 'transcripts');
  await until(l, () => openUnder(transcripts).length === 0, 10_000, 'every mail session to close').catch(() => undefined);
  expect(openUnder(transcripts)).toEqual([]); // before the fix: one per batch
}, 120_000);
