import fc from 'fast-check';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TaskStore } from '../../../src/store/tasks/index.js';
import { tempRepo } from '../temp-repo.js';

let repo: Awaited<ReturnType<typeof tempRepo>>;
beforeEach(async () => {
  repo = await tempRepo('teamd-retry-');
});
afterEach(async () => {
  await repo.cleanup();
});

const onDisk = async (id: string): Promise<Record<string, unknown>> =>
  JSON.parse(await readFile(join(repo.root, '.tasks', `${id}.json`), 'utf8')) as Record<string, unknown>;

describe('retry', () => {
  it('puts a failed task back to pending, unowned, attempts from zero, and keeps its history in a note', async () => {
    const store = await TaskStore.open(repo.root);
    await store.create({ id: 'a', subject: 'a' });
    await store.addNote('a', 'w1', 'tried the parser first');
    await store.claim('a', 'w1', 60_000);
    await store.fail('a', 'w1', 'tests fail: 3 of 40');
    const r = await store.retry('a');
    expect(r.ok).toBe(true);
    const task = await onDisk('a');
    expect(task).toMatchObject({ status: 'pending', owner: null, lease: null, result: null, attempts: 0 });
    const notes = (task.notes as { by: string; text: string }[]).map((n) => `${n.by}: ${n.text}`);
    expect(notes[0]).toBe('w1: tried the parser first');
    expect(notes.at(-1)).toMatch(/^user: retried \(was failed: tests fail: 3 of 40;/);
    expect(store.isReady('a')).toBe(true);
  });

  it('puts a cancelled task back to pending; its dependants wait for it again', async () => {
    const store = await TaskStore.open(repo.root);
    await store.create({ id: 'a', subject: 'a' });
    await store.create({ id: 'b', subject: 'b', blockedBy: ['a'] });
    await store.cancel('a');
    expect((await store.retry('a')).ok).toBe(true);
    expect(store.get('a')?.status).toBe('pending');
    expect(store.blockers('b')).toEqual(['a']);
  });

  it('refuses a task that is pending, in progress or completed, and a missing one, leaving the file alone', async () => {
    const store = await TaskStore.open(repo.root);
    await store.create({ id: 'p', subject: 'p' });
    expect(await store.retry('p')).toEqual({
      ok: false,
      error: 'task "p" is pending; only a failed or cancelled task can be retried',
    });
    await store.claim('p', 'w1', 60_000);
    expect((await store.retry('p')).ok).toBe(false);
    await store.complete('p', 'w1', 'done');
    const before = await onDisk('p');
    expect((await store.retry('p')).ok).toBe(false);
    expect(await onDisk('p')).toEqual(before);
    expect(await store.retry('ghost')).toEqual({ ok: false, error: 'no task "ghost"' });
  });
});

describe('edit', () => {
  it('changes subject, description, owner and priority, and notes what changed', async () => {
    const store = await TaskStore.open(repo.root);
    await store.create({ id: 'a', subject: 'old' });
    const r = await store.edit('a', { subject: 'new', description: 'long\ntext', owner: 'worker-2', priority: -3 });
    expect(r.ok).toBe(true);
    const task = await onDisk('a');
    expect(task).toMatchObject({ subject: 'new', description: 'long\ntext', owner: 'worker-2', priority: -3 });
    expect((task.notes as { text: string }[]).at(-1)?.text).toBe('edited subject, description, owner, priority');
    expect((await store.edit('a', { owner: null })).ok).toBe(true);
    expect(store.get('a')?.owner).toBeNull();
  });

  it('changes blocked-by: blockers must exist and must not close a cycle', async () => {
    const store = await TaskStore.open(repo.root);
    await store.create({ id: 'a', subject: 'a' });
    await store.create({ id: 'b', subject: 'b', blockedBy: ['a'] });
    await store.create({ id: 'c', subject: 'c', blockedBy: ['b'] });
    expect(await store.edit('a', { blockedBy: ['ghost'] })).toEqual({ ok: false, error: 'blockedBy: no task "ghost"' });
    expect(await store.edit('a', { blockedBy: ['c'] })).toEqual({
      ok: false,
      error: 'blockedBy: would create a dependency cycle a → c → b → a',
    });
    expect((await store.edit('a', { blockedBy: ['a'] })).ok).toBe(false);
    expect((await store.edit('c', { blockedBy: ['a', 'a'] })).ok).toBe(true);
    expect(store.get('c')?.blockedBy).toEqual(['a']);
    expect((await store.edit('c', { blockedBy: [] })).ok).toBe(true);
    expect(store.isReady('c')).toBe(true);
  });

  it('refuses bad fields naming the field, a completed task, and owner or blocked-by of a task in progress', async () => {
    const store = await TaskStore.open(repo.root);
    await store.create({ id: 'a', subject: 'a' });
    expect((await store.edit('a', { subject: '' })) as { error: string }).toMatchObject({ error: /subject/ });
    expect((await store.edit('a', { owner: '../x' })) as { error: string }).toMatchObject({ error: /owner/ });
    expect((await store.edit('a', { priority: 1.5 })) as { error: string }).toMatchObject({ error: /priority/ });
    expect(await store.edit('a', {})).toEqual({ ok: false, error: 'nothing to change: give at least one field' });
    await store.claim('a', 'w1', 60_000);
    expect((await store.edit('a', { owner: 'w2' })).ok).toBe(false);
    expect((await store.edit('a', { subject: 'clearer' })).ok).toBe(true);
    expect(store.get('a')).toMatchObject({ status: 'in_progress', owner: 'w1', subject: 'clearer' });
    await store.complete('a', 'w1', 'done');
    expect(await store.edit('a', { subject: 'x' })).toEqual({
      ok: false,
      error: 'task "a" is completed; it cannot be edited',
    });
  });

  it('never writes an invalid task, whatever the edit (generated)', async () => {
    const store = await TaskStore.open(repo.root);
    await store.create({ id: 'a', subject: 'a' });
    await store.create({ id: 'b', subject: 'b' });
    await fc.assert(
      fc.asyncProperty(
        fc.record(
          {
            subject: fc.string({ maxLength: 600 }),
            owner: fc.option(fc.string({ maxLength: 70 })),
            priority: fc.oneof(fc.integer(), fc.double()),
            blockedBy: fc.array(fc.constantFrom('a', 'b', 'ghost', '', '../x')),
          },
          { requiredKeys: [] },
        ),
        async (edit) => {
          await store.edit('a', edit);
          const reopened = await TaskStore.open(repo.root);
          expect(reopened.problems()).toEqual([]);
          expect(reopened.get('a')?.blockedBy.every((id) => id === 'b')).toBe(true);
        },
      ),
      { numRuns: 40 },
    );
  });
});
