import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterEach, describe, expect, it } from 'vitest';
import { MailboxStore } from '../../src/store/mailbox/index.js';
import { writeSpooled } from '../../src/store/mailbox/spool.js';
import { teamPaths } from '../../src/store/paths.js';
import type { Message } from '../../src/store/types.js';
import { MailDesk, RECENT_ACKS } from '../../src/teammate/mail-desk.js';
import { formatMail } from '../../src/teammate/prompts.js';

let dir = '';
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const setup = (onControl: (m: Message) => boolean = () => false) => {
  dir = mkdtempSync(join(tmpdir(), 'teamd-desk-'));
  const mailbox = new MailboxStore(dir);
  const desk = new MailDesk(mailbox, 'ann', () => undefined, onControl);
  return { mailbox, desk };
};

describe('MailDesk', () => {
  it('acknowledges mail only once it is seen in the conversation', async () => {
    const { mailbox, desk } = setup();
    await mailbox.send({ from: 'bob', to: 'ann', content: 'hello' });
    const batch = await desk.takeForIdle();
    expect(batch.map((m) => m.content)).toEqual(['hello']);
    expect((await mailbox.peek('ann')).length).toBe(1); // taken, not yet acknowledged
    await desk.confirm(`<message id="${batch[0]!.id}" from="bob" type="message">hello</message>`);
    expect((await mailbox.peek('ann')).length).toBe(0);
    expect((await mailbox.history('ann')).map((m) => m.id)).toEqual([batch[0]!.id]);
  });

  it('sends mail into a busy run, and keeps what the run never saw for the next idle turn', async () => {
    const { mailbox, desk } = setup();
    const sunk: string[] = [];
    desk.attach((text) => sunk.push(text));
    await mailbox.send({ from: 'bob', to: 'ann', content: 'while you work' });
    await desk.pollWhileBusy();
    expect(sunk.join('')).toContain('while you work');
    desk.detach(); // the run ended before its next tool boundary
    const again = await desk.takeForIdle();
    expect(again.map((m) => m.content)).toEqual(['while you work']);
  });

  it('handles control messages without the model and acknowledges them', async () => {
    const seen: string[] = [];
    const { mailbox, desk } = setup((m) => (m.type === 'shutdown_request' ? (seen.push(m.id), true) : false));
    await mailbox.send({ from: 'lead', to: 'ann', type: 'shutdown_request', content: 'stop', metadata: { request_id: 'r' } });
    await mailbox.send({ from: 'lead', to: 'ann', content: 'ordinary' });
    const batch = await desk.takeForIdle();
    expect(batch.map((m) => m.content)).toEqual(['ordinary']);
    expect(seen.length).toBe(1);
    expect((await mailbox.history('ann')).length).toBe(1);
  });

  it('mail taken by a teammate that died before acknowledging is handed out again, never lost', async () => {
    const { mailbox, desk } = setup();
    await mailbox.send({ from: 'bob', to: 'ann', content: 'survives a crash' });
    expect((await desk.takeForIdle()).length).toBe(1); // taken; then the worker dies before the ack
    const restarted = new MailDesk(mailbox, 'ann', () => undefined, () => false);
    expect(await restarted.takeForIdle()).toEqual([]); // still marked delivering
    await mailbox.recoverStale('ann', 0); // what the lead does when it restarts the teammate
    const again = await restarted.takeForIdle();
    expect(again.map((m) => m.content)).toEqual(['survives a crash']);
  });

  // Issue 24: the desk remembered every id it ever acknowledged (100,000 messages, 100,000 ids per thread).
  it('remembers a bounded number of acknowledged ids however much mail it delivers', async () => {
    const { mailbox } = setup();
    const cap = 10;
    const desk = new MailDesk(mailbox, 'ann', () => undefined, () => false, cap);
    const total = cap * 6 + 3;
    for (let sent = 0; sent < total; ) {
      for (let i = 0; i < 1 + (sent % 17) && sent < total; i++, sent++)
        await mailbox.send({ from: 'bob', to: 'ann', content: `note ${sent}` });
      await desk.confirm(formatMail(await desk.takeForIdle()));
    }
    expect((await mailbox.history('ann')).length).toBe(total);
    expect(desk.rememberedIds).toBe(cap); // the newest `cap`: one id per message before the fix
    expect(RECENT_ACKS).toBeGreaterThanOrEqual(1_000); // the default keeps far more than a batch
  });

  it('still recognises a recently acknowledged message folded in again from a leftover spool file', async () => {
    const { mailbox, desk } = setup();
    await mailbox.send({ from: 'bob', to: 'ann', content: 'once only' });
    const [m] = await desk.takeForIdle();
    await desk.confirm(formatMail([m!]));
    const { deliveringSince: _taken, ...sent } = m!;
    await writeSpooled(teamPaths(dir).mailboxes, sent); // its removal failed: the same message again
    expect(await desk.takeForIdle()).toEqual([]);
    expect(await mailbox.peek('ann')).toEqual([]); // acknowledged again at once, not entered twice
  });

  it('remembers an acknowledged id without the conversation text it was read from', async () => {
    // A regex match is a slice of the text it ran on: an id kept as matched kept the whole `user` event
    // (its session context, the prompt, every message) alive for as long as RECENT_ACKS remembers it.
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const { mailbox, desk } = setup();
    const count = 24;
    const textMB = 1;
    for (let i = 0; i < count; i++) await mailbox.send({ from: 'bob', to: 'ann', content: `big ${i}` });
    const batch = await desk.takeForIdle();
    gc();
    const before = process.memoryUsage().heapUsed;
    for (const m of batch) await desk.confirm(`${'x'.repeat(textMB * 2 ** 20)}${formatMail([m])}`);
    gc();
    const keptMB = (process.memoryUsage().heapUsed - before) / 2 ** 20;
    expect(desk.rememberedIds).toBe(count);
    expect(keptMB).toBeLessThan((count * textMB) / 4); // 24 MB kept before the fix
  });
});
