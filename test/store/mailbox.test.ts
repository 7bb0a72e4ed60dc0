import { appendFile, mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
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
  it('spools each message in its own file with a unique, time-sortable id; take folds them into the inbox in order', async () => {
    const mail = store();
    const a = await mail.send({ from: 'lead', to: 'worker-1', content: 'start on the parser' });
    const b = await mail.send({ from: 'user', to: 'worker-1', type: 'shutdown_request', content: 'stop', metadata: { request_id: 'r1' } });
    expect(a.ok && b.ok).toBe(true);
    if (!a.ok || !b.ok) return;
    expect(a.value.id < b.value.id).toBe(true);
    const names = (await readdir(join(repo.root, '.mailboxes'))).filter((n) => !n.startsWith('.')).sort();
    expect(names).toEqual([`worker-1@${a.value.id}.json`, `worker-1@${b.value.id}.json`].sort());
    const spooled = JSON.parse(await readFile(join(repo.root, '.mailboxes', `worker-1@${b.value.id}.json`), 'utf8'));
    expect(spooled).toMatchObject({ type: 'shutdown_request', metadata: { request_id: 'r1' }, ts: now.toISOString() });
    expect((await mail.peek('worker-1')).map((m) => m.content)).toEqual(['start on the parser', 'stop']);

    expect((await mail.take('worker-1')).map((m) => m.content)).toEqual(['start on the parser', 'stop']);
    const inbox = await inboxOnDisk('worker-1');
    expect(inbox.map((m) => m.content)).toEqual(['start on the parser', 'stop']);
    expect((await readdir(join(repo.root, '.mailboxes'))).filter((n) => n.includes('@'))).toEqual([]);
  });

  it('a spool file left behind by a crash after the fold is dropped, never delivered twice', async () => {
    const mail = store();
    const a = await mail.send({ from: 'lead', to: 'w', content: 'once' });
    if (!a.ok) throw new Error(a.error);
    const file = join(repo.root, '.mailboxes', `w@${a.value.id}.json`);
    const copy = await readFile(file, 'utf8');
    expect((await mail.take('w')).map((m) => m.content)).toEqual(['once']);
    await writeFile(file, copy); // as if the fold's removal never happened
    expect((await mail.peek('w')).map((m) => m.content)).toEqual(['once']);
    expect(await mail.take('w')).toEqual([]);
    expect((await mail.ack('w', [a.value.id])).ok).toBe(true);
    expect(await mail.peek('w')).toEqual([]);
    expect((await mail.history('w')).map((m) => m.content)).toEqual(['once']);
  });

  it('refuses a recipient outside the roster and lists the valid names', async () => {
    const r = await store(['lead', 'user', 'worker-1']).send({ from: 'user', to: 'bob', content: 'hi' });
    expect(r).toEqual({ ok: false, error: 'unknown recipient "bob"; valid: lead, user, worker-1' });
  });

  it('does not expand "*" (broadcast is the caller’s job)', async () => {
    const r = await store().send({ from: 'user', to: '*', content: 'hi all' });
    expect(r.ok === false && r.error).toMatch(/^to: must match/);
  });

  it('never writes over an inbox file it cannot read, and keeps the new mail in the spool until it is fixed', async () => {
    await mkdir(join(repo.root, '.mailboxes'));
    await writeFile(join(repo.root, '.mailboxes', 'w.json'), '[{"oops"');
    const mail = store();
    expect((await mail.send({ from: 'user', to: 'w', content: 'x' })).ok).toBe(true);
    expect(await mail.take('w')).toEqual([]);
    expect(await readFile(join(repo.root, '.mailboxes', 'w.json'), 'utf8')).toBe('[{"oops"');
    expect(await mail.problems()).toEqual([{ file: '.mailboxes/w.json', message: expect.stringMatching(/^invalid JSON/) }]);
    await writeFile(join(repo.root, '.mailboxes', 'w.json'), '[]');
    expect((await mail.take('w')).map((m) => m.content)).toEqual(['x']);
  });

  it('reports a spool file that is not a message, and delivers the rest', async () => {
    const mail = store();
    await mail.send({ from: 'user', to: 'w', content: 'good' });
    await writeFile(join(repo.root, '.mailboxes', 'w@m-junk.json'), '{"half"');
    await writeFile(join(repo.root, '.mailboxes', 'bad name@m-1.json'), '{}');
    expect((await mail.take('w')).map((m) => m.content)).toEqual(['good']);
    expect(await mail.problems()).toEqual([
      { file: '.mailboxes/w@m-junk.json', message: expect.stringMatching(/^invalid JSON/) },
      { file: '.mailboxes/bad name@m-1.json', message: 'not for a valid agent name; never delivered' },
    ]);
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
    expect(raw.map((m: { content: unknown }) => m.content)).toEqual([5]);
    expect(await store().take('w')).toEqual([]);
    expect(await store().agents()).toEqual(['w']);
  });
});
