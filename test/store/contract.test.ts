/**
 * One contract, two stores: every test here runs against the file stores
 * (real files in a temp folder) and the in-memory ones, and must pass the same.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, describe, expect, test } from 'vitest';
import { CronStore } from '../../src/store/cron/index.js';
import { MailboxStore, MemoryMailbox, type Mailbox } from '../../src/store/mailbox/index.js';
import { TaskStore, type TaskStoreOptions } from '../../src/store/tasks/index.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
const repo = (): string => {
  const d = mkdtempSync(join(tmpdir(), 'teamd-contract-'));
  dirs.push(d);
  return d;
};

const ROSTER = ['lead', 'user', 'ann', 'bob'];

const kinds = [
  {
    kind: 'files',
    tasks: (o: TaskStoreOptions = {}) => TaskStore.open(repo(), o),
    mailbox: (): Mailbox => new MailboxStore(repo(), { roster: ROSTER }),
    cron: () => new CronStore(repo(), { roster: ROSTER }),
  },
  {
    kind: 'memory',
    tasks: (o: TaskStoreOptions = {}) => Promise.resolve(TaskStore.inMemory(o)),
    mailbox: (): Mailbox => new MemoryMailbox({ roster: ROSTER }),
    cron: () => CronStore.inMemory({ roster: ROSTER }),
  },
] as const;

describe.each(kinds)('the task store contract ($kind)', ({ tasks }) => {
  test('create, dependencies, ready order, one claim winner, complete frees the dependant', async () => {
    const store = await tasks();
    expect((await store.create({ id: 'a', subject: 'A' })).ok).toBe(true);
    expect((await store.create({ id: 'b', subject: 'B', blockedBy: ['a'] })).ok).toBe(true);
    expect(await store.create({ id: 'c', subject: 'C', blockedBy: ['nope'] })).toEqual({ ok: false, error: 'blockedBy: no task "nope"' });
    expect((await store.edit('a', { blockedBy: ['b'] })).ok).toBe(false); // a cycle
    expect(store.ready().map((t) => t.id)).toEqual(['a']);
    const claims = await Promise.all([store.claim('a', 'ann', 60_000), store.claim('a', 'bob', 60_000)]);
    expect(claims.filter((c) => c.ok)).toHaveLength(1);
    const winner = claims.find((c) => c.ok)!;
    const owner = winner.ok ? winner.value.owner! : '';
    expect((await store.complete('a', owner === 'ann' ? 'bob' : 'ann', 'not mine')).ok).toBe(false);
    expect((await store.complete('a', owner, 'done')).ok).toBe(true);
    expect(store.ready().map((t) => t.id)).toEqual(['b']);
    expect(store.get('a')).toMatchObject({ status: 'completed', result: { summary: 'done' } });
  });

  test('an expired lease returns the task, and fails it after maxAttempts', async () => {
    let now = Date.parse('2026-12-01T00:00:00Z');
    const store = await tasks({ now: () => new Date(now) });
    await store.create({ id: 'x', subject: 'X' });
    await store.claim('x', 'ann', 1_000);
    now += 5_000;
    expect((await store.reclaimExpired(new Date(now), 1)).map((t) => t.status)).toEqual(['failed']);
  });

  test('bad input is refused with the field named, nothing written', async () => {
    const store = await tasks();
    expect(await store.create({ id: '../x', subject: 'bad' })).toMatchObject({ ok: false, error: expect.stringMatching(/^id: /) });
    expect(await store.create({ subject: '' })).toMatchObject({ ok: false, error: expect.stringMatching(/^subject: /) });
    expect(store.list()).toEqual([]);
  });
});

describe.each(kinds)('the mailbox contract ($kind)', ({ mailbox }) => {
  test('send / take / ack, recoverStale, history, and the design names', async () => {
    const box = mailbox();
    expect(await box.send({ from: 'user', to: 'zed', content: 'x' })).toMatchObject({ ok: false, error: expect.stringContaining('unknown recipient "zed"') });
    const m1 = await box.send({ from: 'user', to: 'ann', content: 'one' });
    const m2 = await box.send({ from: 'bob', to: 'ann', content: 'two' });
    expect(m1.ok && m2.ok).toBe(true);
    const batch = await box.take('ann');
    expect(batch.map((m) => m.content)).toEqual(['one', 'two']);
    expect(await box.take('ann')).toEqual([]);
    expect(await box.list('ann')).toEqual([]); // being delivered is not unread
    expect((await box.recoverStale('ann', 0)).length).toBe(2);
    expect((await box.list('ann')).map((m) => m.content)).toEqual(['one', 'two']);
    expect((await box.dequeue('ann'))?.content).toBe('one');
    expect((await box.peek('ann')).map((m) => m.content)).toEqual(['two']);
    expect(await box.markRead('ann', batch[1]!.id)).toBe(true);
    expect(await box.markRead('ann', batch[1]!.id)).toBe(false);
    await box.send({ from: 'user', to: 'ann', content: 'three' });
    expect(await box.clear('ann')).toBe(1);
    expect(await box.dequeue('ann')).toBeUndefined();
    expect((await box.history('ann')).map((m) => m.content)).toEqual(['one', 'two', 'three']);
    expect((await box.record({ from: 'ann', to: 'lead', content: 'idle' })).ok).toBe(true);
    expect(await box.peek('lead')).toEqual([]);
    expect((await box.history('lead')).map((m) => m.content)).toEqual(['idle']);
  });

  test('generated sends and dequeues: every message comes out once, in order', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.oneof(fc.string({ minLength: 1, maxLength: 20 }), fc.constant(null)), { maxLength: 12 }), async (ops) => {
        const box = mailbox();
        const sent: string[] = [];
        const got: string[] = [];
        for (const op of ops) {
          if (op === null) {
            const m = await box.dequeue('bob');
            if (m) got.push(m.content);
          } else if ((await box.send({ from: 'user', to: 'bob', content: op })).ok) sent.push(op);
        }
        for (let m = await box.dequeue('bob'); m; m = await box.dequeue('bob')) got.push(m.content);
        expect(got).toEqual(sent);
        expect((await box.history('bob')).map((m) => m.content)).toEqual(sent);
      }),
      { numRuns: 15 },
    );
  });
});

describe.each(kinds)('the cron store contract ($kind)', ({ cron }) => {
  test('add, refuse a bad expression and an unknown recipient, fire a slot once, remove', async () => {
    const store = cron();
    const job = await store.add({ id: 'nightly', cron: '0 3 * * *', prompt: 'Check the build', to: 'ann', durable: true });
    expect(job.ok).toBe(true);
    expect((await store.add({ cron: '* * *', prompt: 'x' })).ok).toBe(false);
    expect(await store.add({ cron: '0 3 * * *', prompt: 'x', to: 'zed' })).toMatchObject({ ok: false, error: expect.stringMatching(/^to: unknown recipient/) });
    expect((await store.list()).jobs.map((j) => j.id)).toEqual(['nightly']);
    expect((await store.markFired('nightly', '2026-12-01T03:00:00.000Z')).ok).toBe(true);
    expect((await store.markFired('nightly', '2026-12-01T03:00:00.000Z')).ok).toBe(false);
    expect((await store.get('nightly'))?.pendingDelivery).toBe('2026-12-01T03:00:00.000Z');
    expect((await store.markDelivered('nightly')).ok).toBe(true);
    expect((await store.remove('nightly')).ok).toBe(true);
    expect(await store.get('nightly')).toBeUndefined();
    expect((await store.remove('nightly')).ok).toBe(false);
  });
});
