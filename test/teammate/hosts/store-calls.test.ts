/**
 * "The lead writes the team's files": a teammate's stores whose changes are
 * calls to the lead, wired straight to the lead's handler over real files.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { answerStoreCall, type StoreCallTargets } from '../../../src/lead/store-calls.js';
import { MailboxStore } from '../../../src/store/mailbox/index.js';
import { TaskStore } from '../../../src/store/tasks/index.js';
import { remoteMailbox, remoteTasks, StoreCalls } from '../../../src/teammate/hosts/store-client.js';
import { callRefusal } from '../../../src/teammate/hosts/store-methods.js';
import type { FromWorker } from '../../../src/teammate/types.js';

let dir = '';
let targets: StoreCallTargets;
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'teamd-store-calls-'));
  const tasks = await TaskStore.open(dir);
  targets = { repoRoot: dir, tasks, mailbox: new MailboxStore(dir, { roster: ['ann', 'bob', 'lead'] }), granted: () => false };
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** `name`'s side: its stores, every call answered by the lead's handler. */
function teammate(name: string) {
  const calls: StoreCalls = new StoreCalls((m: FromWorker) => {
    if (m.type !== 'store_call') return;
    void answerStoreCall(name, m, targets).then((r) => r.type === 'store_result' && calls.receive(r.callId, r.ok, r.value, r.error));
  });
  const local = TaskStore.fromSnapshot(dir, targets.tasks.snapshot());
  return { calls, tasks: remoteTasks(local, calls), local, mailbox: remoteMailbox(new MailboxStore(dir, { roster: ['ann', 'bob', 'lead'] }), calls) };
}

describe('store calls', () => {
  it('a claim, a change and a completion are made by the lead, and the teammate\'s index follows', async () => {
    await targets.tasks.create({ id: 't1', subject: 'one' });
    const ann = teammate('ann');
    ann.local.adopt(targets.tasks.get('t1')!);
    const claimed = await ann.tasks.claimNext('ann', 60_000);
    expect(claimed.ok && claimed.value?.id).toBe('t1');
    expect(ann.local.get('t1')?.owner).toBe('ann');
    const changed = await ann.tasks.update('t1', (t) => ({ ...t, metadata: { ...t.metadata, tried: 2 } }));
    expect(changed.ok).toBe(true);
    const file = () => JSON.parse(readFileSync(join(dir, '.tasks', 't1.json'), 'utf8'));
    expect(file().metadata.tried).toBe(2);
    const done = await ann.tasks.complete('t1', 'ann', 'all done');
    expect(done.ok).toBe(true);
    expect(file().status).toBe('completed');
    expect(targets.tasks.get('t1')?.status).toBe('completed');
  });

  it('mail is taken and acked by the lead for the teammate, and sent in its name only', async () => {
    await targets.mailbox.send({ from: 'lead', to: 'ann', content: 'hi' });
    const ann = teammate('ann');
    const taken = await ann.mailbox.take('ann');
    expect(taken.map((m) => m.content)).toEqual(['hi']);
    expect((await ann.mailbox.ack('ann', taken.map((m) => m.id))).ok).toBe(true);
    await expect(ann.mailbox.take('bob')).rejects.toThrow(/names "bob", not the caller "ann"/);
    await expect(ann.mailbox.send({ from: 'bob', to: 'lead', content: 'forged' })).rejects.toThrow(/refused/);
    expect((await targets.mailbox.take('lead')).length).toBe(0);
  });

  it('a claim, completion or mail in another agent\'s name is refused, for any name', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 12 }).filter((n) => n !== 'ann'), (other) => {
        expect(callRefusal('ann', 'tasks', 'claimNext', [other, 1000])).toMatch(/not the caller/);
        expect(callRefusal('ann', 'tasks', 'complete', ['t1', other, 'x'])).toMatch(/not the caller/);
        expect(callRefusal('ann', 'mailbox', 'send', [{ from: other, to: 'lead' }])).toMatch(/not the caller/);
        expect(callRefusal('ann', 'mailbox', 'ack', [other, []])).toMatch(/not the caller/);
      }),
    );
    for (const method of ['archiveFinished', 'reclaimExpired', 'constructor', '__proto__', 'toString', 'open'])
      expect(callRefusal('ann', 'tasks', method, [])).toMatch(/not a call a teammate may make/);
    expect(callRefusal('ann', 'files', 'rm', [])).toMatch(/not a call/);
    for (const method of ['reload', 'start', 'toolService']) expect(callRefusal('ann', 'cron', method, [])).toMatch(/cron\.\w+ is not a call/);
    expect(callRefusal('ann', 'cron', 'create', [{}])).toBeUndefined();
    expect(callRefusal('ann', 'tasks', 'claimNext', ['ann', 1000])).toBeUndefined();
  });

  it('a status in another name, or a commit of a worktree the lead did not grant, is refused', async () => {
    const call = (method: string, args: unknown[]) => answerStoreCall('ann', { type: 'store_call', callId: 'c', store: 'files', method, args }, targets);
    const status = { name: 'bob', state: 'idle', pid: 1, task: null, heartbeat: new Date().toISOString(), startedAt: new Date().toISOString(), turns: 0, tokens: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 }, costUsd: 0, model: 'm' };
    expect(await call('status', [status])).toMatchObject({ ok: false, error: expect.stringMatching(/"bob" sent by "ann"/) });
    expect(await call('commit', [dir, { message: 'x' }])).toMatchObject({ ok: false, error: expect.stringMatching(/not a worktree the lead gave ann/) });
    expect(await call('status', [{ ...status, name: 'ann' }])).toMatchObject({ ok: true });
    expect(JSON.parse(readFileSync(join(dir, '.team', 'state', 'agents', 'ann.json'), 'utf8')).name).toBe('ann');
  });

  it('a memory is written in the lead\'s .memory/, whatever folder the teammate names; a bad one is an error naming the field', async () => {
    const ann = teammate('ann').calls.leadWrites(join(dir, 'remote')).writeMemory;
    const written = await ann('/somewhere/else/.memory', { name: '../x', description: 'd', type: 'project', body: 'b' });
    expect(written).toMatchObject({ ok: true, value: { entry: { name: 'x', file: join(dir, '.memory', 'x.md') } } });
    expect(readFileSync(join(dir, '.memory', 'x.md'), 'utf8')).toContain('b');
    const call = (input: unknown) => answerStoreCall('ann', { type: 'store_call', callId: 'c', store: 'files', method: 'memory', args: [input] }, targets);
    expect(await call({ name: 'y', description: 'd', type: 'project', body: 'b', extra: 1 })).toMatchObject({ ok: true, value: { ok: false, error: expect.stringMatching(/^memory: .*extra/) } });
    expect(await call({ name: 'y', description: '', type: 'project', body: 'b' })).toMatchObject({ ok: true, value: { ok: false, error: expect.stringMatching(/description/) } });
  });
});
