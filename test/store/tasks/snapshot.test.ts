/**
 * A teammate's store starts from the lead's index (`fromSnapshot`) and takes
 * in the lead's later reads (`adopt`), which may be older than its own write.
 */
import { afterEach, beforeEach, expect, it } from 'vitest';
import { TaskStore } from '../../../src/store/tasks/index.js';
import type { Task } from '../../../src/store/types.js';
import { tempRepo } from '../temp-repo.js';

let repo: Awaited<ReturnType<typeof tempRepo>>;
let now: Date;
const clock = () => now;
const later = (ms: number) => (now = new Date(now.getTime() + ms));
beforeEach(async () => {
  repo = await tempRepo();
  now = new Date('2026-03-01T10:00:00.000Z');
});
afterEach(async () => repo.cleanup());

async function leadAndWorker(): Promise<{ lead: TaskStore; worker: TaskStore }> {
  const lead = await TaskStore.open(repo.root, { now: clock });
  for (const [id, blockedBy] of [['a', []], ['b', ['a']]] as const) {
    expect((await lead.create({ id, subject: id, blockedBy: [...blockedBy] })).ok).toBe(true);
    later(1);
  }
  return { lead, worker: TaskStore.fromSnapshot(repo.root, lead.snapshot(), { now: clock }) };
}

it('starts from the snapshot without reading a file, with the same readiness', async () => {
  const { worker } = await leadAndWorker();
  expect(worker.readCount).toBe(0);
  expect(worker.ready().map((t) => t.id)).toEqual(['a']);
  expect(worker.blockers('b')).toEqual(['a']);
});

it("adopting a completion frees its dependants; a copy older than the store's own write does not undo it", async () => {
  const { lead, worker } = await leadAndWorker();
  const pendingCopy = lead.get('a')!;
  later(5);
  expect((await worker.claim('a', 'ann', 60_000)).ok).toBe(true);
  expect(worker.adopt(pendingCopy)).toEqual([]); // the lead's read from before the claim arrives late
  expect(worker.get('a')?.status).toBe('in_progress');

  later(5);
  expect((await lead.refresh('a')).kind).toBe('updated');
  expect((await lead.complete('a', 'ann', 'done')).ok).toBe(true);
  expect(worker.adopt(lead.get('a')!)).toEqual(['b']);
  expect(worker.ready().map((t) => t.id)).toEqual(['b']);
});

it('once the copies caught up with its own write, an older version (a file restored by hand) is taken in', async () => {
  const { lead, worker } = await leadAndWorker();
  const original: Task = lead.get('a')!;
  later(5);
  expect((await worker.claim('a', 'ann', 60_000)).ok).toBe(true);
  await lead.refresh('a');
  worker.adopt(lead.get('a')!); // caught up
  expect(worker.adopt(original)).toEqual(['a']); // pending again, so ready again
  expect(worker.get('a')?.status).toBe('pending');
});

it('adopting a removal forgets the task and frees what waited on it', async () => {
  const { worker } = await leadAndWorker();
  expect(worker.adoptRemoval('a')).toEqual([]); // b now waits on a missing task: not ready
  expect(worker.get('a')).toBeUndefined();
  expect(worker.blockers('b')).toEqual(['a']);
});
