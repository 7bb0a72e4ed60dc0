/**
 * A task file "in progress" with no lease (issue 16, item 11) was stuck for
 * good: no lease runs out, so nothing reclaimed it. The lead now unsticks it,
 * at boot and from the reaper: without an owner back to pending at once; with
 * one, leased to that owner, and back to pending when nobody renews the lease.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { TaskStore } from '../../src/store/tasks/index.js';
import { makeTeamRepo, startLead, teamPerTest, until } from '../e2e/support/harness.js';
import { tasksOnDisk } from '../faults/support/files.js';
import { tempRepo } from '../store/temp-repo.js';

const team = teamPerTest();

const stuck = (owner: string | null) => ({ subject: 'stuck', status: 'in_progress', owner, lease: null });

it('the store: an ownerless one goes back to pending; an owned one is leased to its owner, who may renew it', async () => {
  const repo = await tempRepo();
  try {
    const tasks = await TaskStore.open(repo.root);
    expect((await tasks.create({ id: 'a', subject: 'a' })).ok).toBe(true);
    expect((await tasks.create({ id: 'b', subject: 'b' })).ok).toBe(true);
    for (const [id, owner] of [['a', null], ['b', 'ann']] as const) {
      writeFileSync(join(repo.root, '.tasks', `${id}.json`), JSON.stringify({ ...tasks.get(id), ...stuck(owner) }));
      await tasks.refresh(id);
    }
    const now = new Date();
    const changed = await tasks.repairLeaseless(now, 5_000);
    expect(changed.map((t) => [t.id, t.status, t.owner, t.lease?.owner ?? null])).toEqual([
      ['a', 'pending', null, null],
      ['b', 'in_progress', 'ann', 'ann'],
    ]);
    expect(tasks.get('a')?.notes.at(-1)?.text).toMatch(/no owner and no lease/);
    expect(Date.parse(tasks.get('b')!.lease!.expiresAt)).toBe(now.getTime() + 5_000);
    expect((await tasks.renewLease('b', 'ann', 60_000)).ok).toBe(true); // a live owner keeps it
    expect(await tasks.repairLeaseless(new Date(), 5_000)).toEqual([]);
  } finally {
    await repo.cleanup();
  }
});

it('the lead: at boot and while running, stuck tasks end up pending (an absent owner never renews its lease)', async () => {
  const r = team.repo(makeTeamRepo({ script: { rules: [] }, config: { teammates: [], worktrees: { mode: 'off' }, leaseMs: 1_000 } }));
  const write = (id: string, owner: string | null): void =>
    writeFileSync(join(r.dir, '.tasks', `${id}.json`), JSON.stringify(stuck(owner)));
  write('at-boot', null);
  write('ghost-owned', 'ghost');
  const { lead, events } = await startLead(r);
  team.lead(lead);
  expect(tasksOnDisk(r.dir).get('at-boot')?.status).toBe('pending');
  expect(events.some((e) => e.type === 'task_reclaimed' && e.task === 'at-boot')).toBe(true);
  expect(tasksOnDisk(r.dir).get('ghost-owned')?.lease?.owner).toBe('ghost');
  write('while-running', null);
  await until(
    lead,
    () => tasksOnDisk(r.dir).get('while-running')?.status === 'pending' && tasksOnDisk(r.dir).get('ghost-owned')?.status === 'pending',
    20_000,
    'the reaper to unstick both',
  );
  const ghost = tasksOnDisk(r.dir).get('ghost-owned')!;
  expect(ghost).toMatchObject({ owner: null, lease: null, attempts: 1 });
}, 30_000);
