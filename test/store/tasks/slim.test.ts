/**
 * A teammate's copy of the board (`finishedBodies: false`) keeps finished
 * tasks without their descriptions and notes, and still counts them, live or
 * archived, as done for `blockedBy`; their files keep everything.
 */
import fc from 'fast-check';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { withoutFinishedBody } from '../../../src/store/tasks/slim.js';
import { TaskStore } from '../../../src/store/tasks/index.js';
import type { Task } from '../../../src/store/types.js';
import { tempRepo } from '../temp-repo.js';

let repo: Awaited<ReturnType<typeof tempRepo>>;
beforeEach(async () => (repo = await tempRepo()));
afterEach(async () => repo.cleanup());

const LONG = 'a body the copy need not hold '.repeat(100);

async function leadWithDoneBlocker(): Promise<TaskStore> {
  const lead = await TaskStore.open(repo.root);
  expect((await lead.create({ id: 'a', subject: 'first', description: LONG })).ok).toBe(true);
  expect((await lead.create({ id: 'b', subject: 'second', description: LONG, blockedBy: ['a'] })).ok).toBe(true);
  expect((await lead.claim('a', 'ann', 60_000)).ok).toBe(true);
  expect((await lead.addNote('a', 'ann', LONG)).ok).toBe(true);
  expect((await lead.complete('a', 'ann', 'did a')).ok).toBe(true);
  return lead;
}

it('a finished task in the copy has no body; a live one keeps it; the blocker still counts as done', async () => {
  const lead = await leadWithDoneBlocker();
  const copy = TaskStore.fromSnapshot(repo.root, lead.snapshot(), { finishedBodies: false });
  expect(copy.keepsFinishedBodies).toBe(false);
  expect(copy.get('a')).toMatchObject({ status: 'completed', subject: 'first', description: '', notes: [] });
  expect(copy.get('a')?.result?.summary).toBe('did a'); // a dependant's prompt lists it
  expect(copy.get('b')?.description).toBe(LONG);
  expect(copy.blockers('b')).toEqual([]);
  expect(copy.ready().map((t) => t.id)).toEqual(['b']);
  expect(lead.get('a')?.description).toBe(LONG); // the lead's own index keeps it all
  expect((await lead.refresh('a')).kind).not.toBe('removed');
  expect(lead.get('a')?.notes[0]?.text).toBe(LONG); // and so does the file
});

it('a completion adopted from the lead, or written by the copy itself, drops the body', async () => {
  const lead = await TaskStore.open(repo.root);
  expect((await lead.create({ id: 'a', subject: 'first', description: LONG })).ok).toBe(true);
  expect((await lead.create({ id: 'c', subject: 'third', description: LONG })).ok).toBe(true);
  const copy = TaskStore.fromSnapshot(repo.root, lead.snapshot(), { finishedBodies: false });
  expect(copy.get('a')?.description).toBe(LONG);
  expect((await copy.claim('a', 'ann', 60_000)).ok).toBe(true);
  expect((await copy.complete('a', 'ann', 'did a')).ok).toBe(true); // a thread teammate writes the file itself
  expect(copy.get('a')).toMatchObject({ status: 'completed', description: '' });
  expect((await lead.refresh('a')).kind).toBe('updated');
  expect(lead.get('a')?.description).toBe(LONG);
  expect((await lead.cancel('c')).ok).toBe(true);
  copy.adopt(lead.get('c')!);
  expect(copy.get('c')).toMatchObject({ status: 'cancelled', description: '' });
});

it('an archived completed blocker stays done for the copy once the lead has moved it out', async () => {
  const lead = await leadWithDoneBlocker();
  const copy = TaskStore.fromSnapshot(repo.root, lead.snapshot(), { finishedBodies: false });
  const moved = await lead.archiveFinished(new Date(Date.now() + 60_000));
  expect(moved).toContain('a');
  expect(copy.adoptRemoval('a')).toEqual([]);
  expect(copy.blockers('b')).toEqual([]);
  expect(copy.isReady('b')).toBe(true);
  expect((await copy.claim('b', 'bob', 60_000)).ok).toBe(true); // claim's own check agrees (claim.ts openBlockers)
});

const arbitraryTask = fc.record({
  status: fc.constantFrom('pending', 'in_progress', 'completed', 'failed', 'cancelled'),
  description: fc.string(),
  notes: fc.array(fc.record({ by: fc.string(), text: fc.string(), at: fc.constant('2026-01-01T00:00:00.000Z') }), { maxLength: 3 }),
  subject: fc.string(),
});

it('drops exactly the description and notes of completed and cancelled tasks, nothing else of any task', () => {
  fc.assert(
    fc.property(arbitraryTask, (partial) => {
      const task = { id: 't', owner: null, blockedBy: [], priority: 0, attempts: 0, lease: null, result: null, metadata: { merge: 'x' }, createdAt: 'c', updatedAt: 'u', ...partial } as unknown as Task;
      const kept = withoutFinishedBody(task);
      const finished = task.status === 'completed' || task.status === 'cancelled';
      expect(kept).toEqual(finished ? { ...task, description: '', notes: [] } : task);
    }),
  );
});
