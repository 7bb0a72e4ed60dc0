import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TaskStore } from '../../../src/store/tasks/index.js';
import { ID_PATTERN, TaskSchema } from '../../../src/store/types.js';
import { tempRepo } from '../temp-repo.js';

let repo: Awaited<ReturnType<typeof tempRepo>>;
beforeEach(async () => (repo = await tempRepo()));
afterEach(async () => repo.cleanup());

describe('TaskStore.create', () => {
  it('writes a full task file and indexes it', async () => {
    const store = await TaskStore.open(repo.root);
    const created = await store.create({ id: 'design-ast', subject: 'Design the AST', description: 'nodes and spans', priority: 2 });
    expect(created.ok).toBe(true);
    const onDisk = TaskSchema.parse(JSON.parse(await readFile(join(repo.root, '.tasks', 'design-ast.json'), 'utf8')));
    expect(onDisk).toMatchObject({ id: 'design-ast', status: 'pending', owner: null, priority: 2, description: 'nodes and spans' });
    expect(store.get('design-ast')).toEqual(onDisk);
  });

  it('generates time-sortable ids', async () => {
    const store = await TaskStore.open(repo.root);
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const t = await store.create({ subject: `task ${i}` });
      if (t.ok) ids.push(t.value.id);
    }
    expect(ids).toHaveLength(5);
    expect(ids.every((id) => ID_PATTERN.test(id) && id.startsWith('t-'))).toBe(true);
    expect([...ids].sort()).toEqual(ids);
  });

  it('refuses an id that exists, also when another process wrote it', async () => {
    const store = await TaskStore.open(repo.root);
    const other = await TaskStore.open(repo.root);
    expect((await store.create({ id: 'x', subject: 'first' })).ok).toBe(true);
    expect(await other.create({ id: 'x', subject: 'second' })).toEqual({ ok: false, error: 'task "x" already exists' });
  });

  it('refuses unknown blockedBy ids, but finds ones another process created', async () => {
    const store = await TaskStore.open(repo.root);
    expect(await store.create({ subject: 'b', blockedBy: ['ghost'] })).toEqual({ ok: false, error: 'blockedBy: no task "ghost"' });
    const other = await TaskStore.open(repo.root);
    await other.create({ id: 'made-elsewhere', subject: 'a' });
    expect((await store.create({ subject: 'b', blockedBy: ['made-elsewhere'] })).ok).toBe(true);
  });

  it('refuses a task blocked by itself', async () => {
    const store = await TaskStore.open(repo.root);
    const r = await store.create({ id: 'selfish', subject: 'x', blockedBy: ['selfish'] });
    expect(r).toEqual({ ok: false, error: 'blockedBy: would create a dependency cycle selfish → selfish' });
  });

  it('refuses a cycle closed through an existing task that names the new id', async () => {
    const store = await TaskStore.open(repo.root);
    await store.create({ id: 'a', subject: 'a' });
    // b waits on a and on c, which does not exist yet (a dropped file can do this).
    await writeFile(join(repo.root, '.tasks', 'b.json'), JSON.stringify({ subject: 'b', blockedBy: ['a', 'c'] }));
    await store.refresh('b');
    const r = await store.create({ id: 'c', subject: 'c', blockedBy: ['b'] });
    expect(r).toEqual({ ok: false, error: 'blockedBy: would create a dependency cycle c → b → c' });
  });

  it.each([
    [{ subject: '' }, 'subject: must not be empty'],
    [{ subject: 'x', id: '../x' }, 'id: must match'],
    [{ subject: 'x', owner: 'a/b' }, 'owner: must match'],
    [{ subject: 'x', priority: 1.5 }, 'priority: '],
    [{ subject: 'x', blockedBy: ['/etc/passwd'] }, 'blockedBy.0: must match'],
    [{ subject: 'x', status: 'completed' }, 'status: unknown field'],
  ])('refuses bad input %j with the field named', async (input, message) => {
    const store = await TaskStore.open(repo.root);
    const r = await store.create(input);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toContain(message);
    expect(store.list()).toEqual([]);
  });
});
