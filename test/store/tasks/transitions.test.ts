import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TaskStore, canMove, checkChange } from '../../../src/store/tasks/index.js';
import type { Task, TaskStatus } from '../../../src/store/types.js';
import { TaskSchema } from '../../../src/store/types.js';
import { tempRepo } from '../temp-repo.js';

const STATUSES: TaskStatus[] = ['pending', 'in_progress', 'completed', 'failed', 'cancelled'];
const ALLOWED = new Set([
  'pending>in_progress',
  'pending>cancelled',
  'pending>failed',
  'in_progress>completed',
  'in_progress>failed',
  'in_progress>pending',
  'in_progress>cancelled',
  'failed>pending',
  'failed>cancelled',
  'cancelled>pending',
]);

const task = (fields: Partial<Task> = {}): Task =>
  TaskSchema.parse({ id: 't', subject: 's', createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z', ...fields });
const held = { status: 'in_progress' as const, owner: 'w1', lease: { owner: 'w1', expiresAt: '2026-01-01T01:00:00.000Z' } };

describe('the task state machine', () => {
  it.each(STATUSES.flatMap((from) => STATUSES.map((to) => [from, to] as const)))('%s → %s', (from, to) => {
    expect(canMove(from, to)).toBe(from === to || ALLOWED.has(`${from}>${to}`));
  });

  it('checkChange refuses an illegal edge, a changed id, and in_progress without a lease', () => {
    expect(checkChange(task({ status: 'completed' }), task({ status: 'pending' }))).toEqual({
      ok: false,
      error: 'task "t" cannot go from completed to pending',
    });
    expect(checkChange(task(), task({ id: 'other' })).ok).toBe(false);
    expect(checkChange(task(), task({ status: 'in_progress', owner: 'w1' }))).toEqual({
      ok: false,
      error: 'task "t" in progress needs an owner and a lease held by that owner',
    });
    expect(checkChange(task(), task(held)).ok).toBe(true);
  });

  it('checkChange drops the lease when a task leaves in_progress', () => {
    const after = checkChange(task(held), task({ ...held, status: 'completed' }));
    expect(after.ok && after.value.lease).toBeNull();
  });

  it('checkChange validates the whole task against the schema', () => {
    const bad = { ...task(), owner: '../x' } as Task;
    const r = checkChange(task(), bad);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toMatch(/^owner: must match/);
  });
});

describe('TaskStore.update', () => {
  let repo: Awaited<ReturnType<typeof tempRepo>>;
  beforeEach(async () => (repo = await tempRepo()));
  afterEach(async () => repo.cleanup());

  it('applies a mutator to the fresh file and stamps updatedAt', async () => {
    let now = new Date('2026-01-01T00:00:00.000Z');
    const store = await TaskStore.open(repo.root, { now: () => now });
    await store.create({ id: 'x', subject: 'old' });
    now = new Date('2026-01-02T00:00:00.000Z');
    const r = await store.update('x', (t) => ({ ...t, subject: 'new', metadata: { area: 'parser' } }));
    expect(r.ok && r.value).toMatchObject({ subject: 'new', metadata: { area: 'parser' }, updatedAt: now.toISOString() });
    expect((await TaskStore.open(repo.root)).get('x')?.subject).toBe('new');
  });

  it('refuses an illegal transition and leaves the file as it was', async () => {
    const store = await TaskStore.open(repo.root);
    await store.create({ id: 'x', subject: 's' });
    await store.claim('x', 'w1', 60_000);
    await store.complete('x', 'w1', 'done');
    const r = await store.update('x', (t) => ({ ...t, status: 'pending' }));
    expect(r).toEqual({ ok: false, error: 'task "x" cannot go from completed to pending' });
    expect((await TaskStore.open(repo.root)).get('x')?.status).toBe('completed');
  });

  it('passes a mutator’s own refusal through', async () => {
    const store = await TaskStore.open(repo.root);
    await store.create({ id: 'x', subject: 's' });
    expect(await store.update('x', () => ({ ok: false, error: 'changed meanwhile' }))).toEqual({ ok: false, error: 'changed meanwhile' });
  });

  it('refuses a traversal id without touching any path', async () => {
    const store = await TaskStore.open(repo.root);
    const r = await store.update('../../etc/passwd', (t) => t);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toContain('invalid id "../../etc/passwd"');
  });
});
