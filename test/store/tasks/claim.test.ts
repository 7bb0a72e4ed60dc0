import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TaskStore } from '../../../src/store/tasks/index.js';
import { tempRepo } from '../temp-repo.js';

let repo: Awaited<ReturnType<typeof tempRepo>>;
let now: Date;
const clock = () => now;
beforeEach(async () => {
  repo = await tempRepo();
  now = new Date('2026-03-01T10:00:00.000Z');
});
afterEach(async () => repo.cleanup());

const open = () => TaskStore.open(repo.root, { now: clock });
const later = (ms: number) => (now = new Date(now.getTime() + ms));

/** design → parser → tests, and docs waiting on both parser and cli (a fan-in). */
async function chainAndFanIn(store: TaskStore): Promise<void> {
  for (const [id, blockedBy] of [
    ['design', []],
    ['parser', ['design']],
    ['tests', ['parser']],
    ['cli', []],
    ['docs', ['parser', 'cli']],
  ] as const) {
    const r = await store.create({ id, subject: id, blockedBy: [...blockedBy] });
    expect(r.ok).toBe(true);
    later(1);
  }
}

async function finish(store: TaskStore, id: string, who = 'w1'): Promise<void> {
  expect((await store.claim(id, who, 60_000)).ok).toBe(true);
  expect((await store.complete(id, who, `${id} done`)).ok).toBe(true);
}

describe('ready and claim', () => {
  it('ready = pending with every blocker completed, oldest first; a fan-in waits for all', async () => {
    const store = await open();
    await chainAndFanIn(store);
    expect(store.ready().map((t) => t.id)).toEqual(['design', 'cli']);
    expect(store.blockers('docs')).toEqual(['parser', 'cli']);
    expect(store.dependents('parser').sort()).toEqual(['docs', 'tests']);
    await finish(store, 'design');
    expect(store.ready().map((t) => t.id)).toEqual(['parser', 'cli']);
    await finish(store, 'parser');
    expect(store.ready().map((t) => t.id)).toEqual(['tests', 'cli']);
    expect(store.blockers('docs')).toEqual(['cli']);
    await finish(store, 'cli');
    expect(store.ready().map((t) => t.id)).toEqual(['tests', 'docs']);
  });

  it('orders by priority (lowest value first), then age', async () => {
    const store = await open();
    await store.create({ id: 'old-low', subject: 'a' });
    later(1);
    await store.create({ id: 'new-high', subject: 'b', priority: -5 });
    later(1);
    await store.create({ id: 'new-low', subject: 'c' });
    expect(store.ready().map((t) => t.id)).toEqual(['new-high', 'old-low', 'new-low']);
    expect((await store.claimNext('w1', 1000)).ok && store.get('new-high')?.status).toBe('in_progress');
  });

  it('refuses to claim a blocked, taken or someone else’s task, with the reason', async () => {
    const store = await open();
    await chainAndFanIn(store);
    await store.create({ id: 'mine', subject: 'for w2', owner: 'w2' });
    expect(await store.claim('parser', 'w1', 1000)).toEqual({ ok: false, error: 'task "parser" is blocked by design' });
    expect(await store.claim('mine', 'w1', 1000)).toEqual({ ok: false, error: 'task "mine" is assigned to w2' });
    expect(store.ready('w1').map((t) => t.id)).not.toContain('mine');
    expect(store.ready('w2').map((t) => t.id)).toContain('mine');
    expect((await store.claim('mine', 'w2', 1000)).ok).toBe(true);
    expect((await store.claim('design', 'w1', 1000)).ok).toBe(true);
    expect(await store.claim('design', 'w2', 1000)).toEqual({ ok: false, error: 'task "design" is in_progress, not pending' });
    expect(await store.claim('nope', 'w1', 1000)).toEqual({ ok: false, error: 'no task "nope"' });
    expect((await store.claim('cli', '../evil', 1000)).ok).toBe(false);
  });

  it('a claim sees a blocker completed by another process, even if its own index is stale', async () => {
    const store = await open();
    await chainAndFanIn(store);
    const other = await open();
    await finish(other, 'design');
    expect(store.get('design')?.status).toBe('pending'); // stale, nobody told this store
    expect((await store.claim('parser', 'w1', 1000)).ok).toBe(true);
    expect(store.get('design')?.status).toBe('completed');
  });

  it('claimNext returns null when nothing is ready', async () => {
    const store = await open();
    expect(await store.claimNext('w1', 1000)).toEqual({ ok: true, value: null });
    await chainAndFanIn(store);
    expect((await store.claimNext('w1', 1000)).ok).toBe(true);
    expect((await store.claimNext('w1', 1000)).ok).toBe(true);
    expect(await store.claimNext('w1', 1000)).toEqual({ ok: true, value: null });
  });

  it('in one process, concurrent claims of one task have exactly one winner', async () => {
    const store = await open();
    await store.create({ id: 'prize', subject: 'x' });
    const results = await Promise.all(['a', 'b', 'c', 'd'].map((w) => store.claim('prize', w, 1000)));
    expect(results.filter((r) => r.ok)).toHaveLength(1);
  });
});

describe('while in progress', () => {
  it('renews, completes, fails and releases only for the owner', async () => {
    const store = await open();
    await store.create({ id: 'a', subject: 'a' });
    await store.create({ id: 'b', subject: 'b' });
    await store.create({ id: 'c', subject: 'c' });
    for (const id of ['a', 'b', 'c']) await store.claim(id, 'w1', 1000);
    expect((await store.renewLease('a', 'w2', 1000)).ok).toBe(false);
    later(500);
    const renewed = await store.renewLease('a', 'w1', 1000);
    expect(renewed.ok && renewed.value.lease?.expiresAt).toBe('2026-03-01T10:00:01.500Z');
    expect(await store.complete('a', 'w2', 'mine now')).toEqual({
      ok: false,
      error: 'task "a" is in_progress by w1, not in progress by w2',
    });
    const done = await store.complete('a', 'w1', { summary: 'did it', filesTouched: ['x.ts'] });
    expect(done.ok && done.value).toMatchObject({ status: 'completed', lease: null, result: { summary: 'did it' } });
    const failed = await store.fail('b', 'w1', 'compiler crashed');
    expect(failed.ok && failed.value).toMatchObject({ status: 'failed', result: { error: 'compiler crashed' } });
    const released = await store.release('c', 'w1', 'needs a design decision');
    expect(released.ok && released.value).toMatchObject({ status: 'pending', owner: null, lease: null });
    expect(released.ok && released.value.notes.at(-1)).toMatchObject({ by: 'w1', text: 'needs a design decision' });
    expect(store.ready().map((t) => t.id)).toEqual(['c']);
  });

  it('reclaimExpired returns a crashed owner’s task to pending, then fails it after maxAttempts', async () => {
    const store = await open();
    await store.create({ id: 'flaky', subject: 'x' });
    for (let attempt = 1; attempt <= 3; attempt++) {
      expect((await store.claim('flaky', `w${attempt}`, 1000)).ok).toBe(true);
      expect(await store.reclaimExpired(now, 3)).toEqual([]); // not expired yet
      later(1000);
      const changed = await store.reclaimExpired(now, 3);
      expect(changed.map((t) => [t.id, t.status, t.attempts])).toEqual([
        ['flaky', attempt < 3 ? 'pending' : 'failed', attempt],
      ]);
      expect(changed[0]?.notes.at(-1)?.text).toContain(`lease of w${attempt} expired`);
    }
    expect(store.get('flaky')?.result?.error).toBe('lease expired');
  });

  it('reclaimExpired leaves a task alone whose owner renewed it in another process', async () => {
    const store = await open();
    await store.create({ id: 'busy', subject: 'x' });
    await store.claim('busy', 'w1', 1000);
    const worker = await open();
    later(900);
    await worker.renewLease('busy', 'w1', 1000);
    later(200); // past the lease this store knows, not the renewed one
    expect(await store.reclaimExpired(now, 3)).toEqual([]);
    expect(store.get('busy')?.status).toBe('in_progress');
  });

  it('cancel and addNote', async () => {
    const store = await open();
    await store.create({ id: 'x', subject: 'x' });
    expect((await store.addNote('x', 'lead', 'try the fast path')).ok).toBe(true);
    const cancelled = await store.cancel('x', 'user');
    expect(cancelled.ok && cancelled.value.status).toBe('cancelled');
    expect(cancelled.ok && cancelled.value.notes.map((n) => n.text)).toEqual(['try the fast path', 'cancelled']);
    expect(await store.cancel('x')).toEqual({ ok: false, error: 'task "x" is already cancelled' });
  });
});
