import { appendFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MailboxStore } from '../../src/store/mailbox/index.js';
import { InboxSchema } from '../../src/store/types.js';
import { tempRepo } from './temp-repo.js';

let repo: Awaited<ReturnType<typeof tempRepo>>;
let now: Date;
beforeEach(async () => {
  repo = await tempRepo();
  now = new Date('2026-04-01T12:00:00.000Z');
});
afterEach(async () => repo.cleanup());

const store = (roster?: string[]) => new MailboxStore(repo.root, { roster, now: () => now });
const inboxOnDisk = async (agent: string) =>
  InboxSchema.parse(JSON.parse(await readFile(join(repo.root, '.mailboxes', `${agent}.json`), 'utf8')));

describe('send', () => {
  it('appends to the inbox file with a unique, time-sortable id', async () => {
    const mail = store();
    const a = await mail.send({ from: 'lead', to: 'worker-1', content: 'start on the parser' });
    const b = await mail.send({ from: 'user', to: 'worker-1', type: 'shutdown_request', content: 'stop', metadata: { request_id: 'r1' } });
    expect(a.ok && b.ok).toBe(true);
    const inbox = await inboxOnDisk('worker-1');
    expect(inbox.map((m) => m.content)).toEqual(['start on the parser', 'stop']);
    expect(inbox[1]).toMatchObject({ type: 'shutdown_request', metadata: { request_id: 'r1' }, ts: now.toISOString() });
    expect(inbox[0]!.id < inbox[1]!.id).toBe(true);
  });

  it('refuses a recipient outside the roster and lists the valid names', async () => {
    const r = await store(['lead', 'user', 'worker-1']).send({ from: 'user', to: 'bob', content: 'hi' });
    expect(r).toEqual({ ok: false, error: 'unknown recipient "bob"; valid: lead, user, worker-1' });
  });

  it('does not expand "*" (broadcast is the caller’s job)', async () => {
    const r = await store().send({ from: 'user', to: '*', content: 'hi all' });
    expect(r.ok === false && r.error).toMatch(/^to: must match/);
  });

  it('refuses to write over an inbox file it cannot read, naming it', async () => {
    await mkdir(join(repo.root, '.mailboxes'));
    await writeFile(join(repo.root, '.mailboxes', 'w.json'), '[{"oops"');
    const r = await store().send({ from: 'user', to: 'w', content: 'x' });
    expect(r.ok === false && r.error).toMatch(/^\.mailboxes\/w\.json: invalid JSON/);
    expect(await readFile(join(repo.root, '.mailboxes', 'w.json'), 'utf8')).toBe('[{"oops"');
  });
});

describe('take and ack', () => {
  it('take hands out the unread batch once; ack archives it and empties the inbox', async () => {
    const mail = store();
    await mail.send({ from: 'lead', to: 'w', content: 'one' });
    await mail.send({ from: 'lead', to: 'w', content: 'two' });
    const batch = await mail.take('w');
    expect(batch.map((m) => [m.content, m.deliveringSince])).toEqual([
      ['one', now.toISOString()],
      ['two', now.toISOString()],
    ]);
    await mail.send({ from: 'lead', to: 'w', content: 'three' });
    expect((await mail.take('w')).map((m) => m.content)).toEqual(['three']);
    expect(await mail.take('w')).toEqual([]);
    expect(await mail.inboxSizes()).toEqual({ w: 3 });

    const acked = await mail.ack('w', batch.map((m) => m.id));
    expect(acked.ok && acked.value.map((m) => m.content)).toEqual(['one', 'two']);
    expect((await mail.peek('w')).map((m) => m.content)).toEqual(['three']);
    const history = await mail.history('w');
    expect(history.map((m) => m.content)).toEqual(['one', 'two']);
    expect(history[0]).not.toHaveProperty('deliveringSince');
    expect((await mail.history('w', 1)).map((m) => m.content)).toEqual(['two']);
  });

  it('acking again, or acking unknown ids, is harmless', async () => {
    const mail = store();
    await mail.send({ from: 'lead', to: 'w', content: 'one' });
    const [m] = await mail.take('w');
    expect((await mail.ack('w', [m!.id])).ok).toBe(true);
    expect(await mail.ack('w', [m!.id, 'never-sent'])).toEqual({ ok: true, value: [] });
    expect(await mail.history('w')).toHaveLength(1);
  });

  it('a batch taken and never acked (a crash) comes back through recoverStale, only once it is old enough', async () => {
    await store().send({ from: 'lead', to: 'w', content: 'important' });
    const crashed = await store().take('w');
    const restarted = store();
    expect(await restarted.take('w')).toEqual([]);
    expect(await restarted.recoverStale('w', 60_000)).toEqual([]);
    now = new Date(now.getTime() + 60_000);
    const recovered = await restarted.recoverStale('w', 60_000);
    expect(recovered.map((m) => m.id)).toEqual(crashed.map((m) => m.id));
    const again = await restarted.take('w');
    expect(again.map((m) => m.id)).toEqual(crashed.map((m) => m.id)); // same id: the recipient dedups
  });

  it('history reads past a torn last line and ignores a duplicate archived by a crash between archive and inbox write', async () => {
    const mail = store();
    await mail.send({ from: 'lead', to: 'w', content: 'one' });
    const batch = await mail.take('w');
    await mail.ack('w', batch.map((m) => m.id));
    const archive = join(repo.root, '.mailboxes', 'archive', 'w.jsonl');
    const line = (await readFile(archive, 'utf8')).trim();
    await appendFile(archive, `${line}\n{"id":"torn`);
    await mail.send({ from: 'lead', to: 'w', content: 'two' });
    await mail.ack('w', (await mail.take('w')).map((m) => m.id));
    expect((await mail.history('w')).map((m) => m.content)).toEqual(['one', 'two']);
    expect(await mail.problems()).toEqual([{ file: '.mailboxes/archive/w.jsonl:3', message: expect.stringContaining('invalid JSON') }]);
  });
});

describe('problems', () => {
  it('names the inbox file and the field', async () => {
    await mkdir(join(repo.root, '.mailboxes'));
    await writeFile(join(repo.root, '.mailboxes', 'w.json'), JSON.stringify([{ id: 'm1', from: 'x', to: 'w', content: 5, ts: 'now' }]));
    await writeFile(join(repo.root, '.mailboxes', 'bad name.json'), '[]');
    const problems = await store().problems();
    expect(problems).toEqual([
      { file: '.mailboxes/bad name.json', message: expect.stringContaining('file name is not a valid agent name') },
      { file: '.mailboxes/w.json', field: '0.content', message: expect.stringContaining('expected string') },
      { file: '.mailboxes/w.json', field: '0.ts', message: 'Invalid ISO datetime' },
    ]);
    expect(await store().peek('w')).toEqual([]);
    expect(await store().agents()).toEqual(['w']);
    // A bad message never blocks new mail, and is kept as it was; delivery waits until it is fixed.
    expect((await store().send({ from: 'user', to: 'w', content: 'still arrives' })).ok).toBe(true);
    const raw = JSON.parse(await readFile(join(repo.root, '.mailboxes', 'w.json'), 'utf8'));
    expect(raw.map((m: { content: unknown }) => m.content)).toEqual([5, 'still arrives']);
    expect(await store().take('w')).toEqual([]);
  });
});
