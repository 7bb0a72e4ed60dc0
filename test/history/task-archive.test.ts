/**
 * The hot board: finished tasks move to `.tasks/archive/` and stay findable,
 * once; dependencies on an archived completed task stay satisfied; a kill in
 * the middle of a move loses nothing and the next gc finishes it.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TaskStore } from '../../src/store/tasks/index.js';
import { spawnTs } from '../support/race/spawn-ts.js';
import { tempRepo } from '../store/temp-repo.js';

let repo: { root: string; cleanup: () => Promise<void> };
beforeEach(async () => (repo = await tempRepo('teamd-archive-')));
afterEach(() => repo.cleanup());

type Fate = 'pending' | 'completed' | 'cancelled' | 'failed';
const OLD = new Date('2026-10-01T00:00:00Z');

async function board(root: string, plan: { fate: Fate; deps: number[] }[]): Promise<TaskStore> {
  const store = await TaskStore.open(root, { now: () => OLD });
  for (const [i, p] of plan.entries()) {
    const id = `t${i}`;
    const blockedBy = [...new Set(p.deps.filter((d) => d < i).map((d) => `t${d}`))];
    expect(
      (await store.create({ id, subject: `task ${i}`, blockedBy: p.fate === 'pending' ? blockedBy : [] })).ok,
    ).toBe(true);
    if (p.fate === 'cancelled') await store.cancel(id);
    if (p.fate === 'completed' || p.fate === 'failed') {
      await store.claim(id, 'w', 60_000);
      if (p.fate === 'completed') await store.complete(id, 'w', 'done');
      else await store.fail(id, 'w', 'broke');
    }
  }
  return store;
}

const planArb = fc.array(
  fc.record({
    fate: fc.constantFrom<Fate>('pending', 'completed', 'cancelled', 'failed'),
    deps: fc.array(fc.nat({ max: 7 }), { maxLength: 3 }),
  }),
  { minLength: 1, maxLength: 8 },
);

describe('the task archive', () => {
  it('an archived task is never lost or listed twice; waiting on it reads as before', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(planArb, async (plan) => {
        const root = join(repo.root, `r${run++}`);
        const store = await board(root, plan);
        const before = new Map(
          store
            .list()
            .map((t) => [t.id, { task: t, blockers: store.blockers(t.id), ready: store.isReady(t.id) }]),
        );
        const moved = await store.archiveFinished(new Date());
        expect(moved.sort()).toEqual(
          plan.flatMap((p, i) => (p.fate === 'completed' || p.fate === 'cancelled' ? [`t${i}`] : [])).sort(),
        );
        for (const cold of [store, await TaskStore.open(root)]) {
          const live = cold.list().map((t) => t.id);
          const archived = await cold.archive.ids();
          expect([...live, ...archived].sort()).toEqual([...before.keys()].sort());
          expect(live.filter((id) => archived.includes(id))).toEqual([]);
          for (const [id, was] of before) {
            expect(cold.find(id)?.task).toEqual(was.task);
            if (live.includes(id))
              expect([cold.blockers(id), cold.isReady(id)]).toEqual([was.blockers, was.ready]);
          }
          expect(cold.problems()).toEqual([]);
        }
      }),
      { numRuns: 12 },
    );
  });

  it('only finished tasks older than the cutoff move; a new task may wait on an archived one; its id stays taken', async () => {
    const store = await board(repo.root, [{ fate: 'completed', deps: [] }]);
    expect(await store.archiveFinished(OLD)).toEqual([]);
    expect(await store.archiveFinished(new Date(), { dryRun: true })).toEqual(['t0']);
    expect(existsSync(join(repo.root, '.tasks', 't0.json'))).toBe(true);
    expect(await store.archiveFinished(new Date())).toEqual(['t0']);
    const next = await store.create({ id: 'next', subject: 'after t0', blockedBy: ['t0'] });
    expect(next.ok && store.isReady('next')).toBe(true);
    // …and claimable, by this store and by a fresh one (the claim re-checks blockers under the lock).
    const other = await TaskStore.open(repo.root);
    expect(await other.claimNext('w', 60_000)).toMatchObject({ ok: true, value: { id: 'next' } });
    expect(await store.create({ id: 't0', subject: 'again' })).toEqual({
      ok: false,
      error: 'task "t0" already exists (archived)',
    });
  });

  it('a kill between the archive copy and the removal leaves the task live (once) and the next run finishes the move', async () => {
    await board(repo.root, [
      { fate: 'completed', deps: [] },
      { fate: 'pending', deps: [0] },
    ]);
    const child = spawnTs(fileURLToPath(new URL('./support/archive-and-hang.ts', import.meta.url)), [
      repo.root,
    ]);
    await child.waitForLine((l) => l === 'paused');
    child.child.kill('SIGKILL');
    await child.exited;
    expect(existsSync(join(repo.root, '.tasks', 't0.json'))).toBe(true);
    expect(existsSync(join(repo.root, '.tasks', 'archive', 't0.json'))).toBe(true);
    // The killed process's lock is taken over once stale (a short staleness keeps the test quick).
    const store = await TaskStore.open(repo.root, { lock: { staleMs: 1000, retries: 3000 } });
    expect(store.find('t0')).toMatchObject({ archived: false, task: { status: 'completed' } });
    expect(await store.archiveFinished(new Date(Date.now() + 60_000))).toEqual(['t0']);
    expect(existsSync(join(repo.root, '.tasks', 't0.json'))).toBe(false);
    expect(store.find('t0')).toMatchObject({ archived: true, task: { status: 'completed' } });
    expect(store.isReady('t1')).toBe(true);
  });
});
