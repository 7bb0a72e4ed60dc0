import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TaskStore } from '../../../src/store/tasks/index.js';
import type { Task } from '../../../src/store/types.js';
import { tempRepo } from '../temp-repo.js';

let repo: Awaited<ReturnType<typeof tempRepo>>;
beforeEach(async () => (repo = await tempRepo()));
afterEach(async () => repo.cleanup());

const full = (id: string, fields: Partial<Task> = {}): Task => ({
  id,
  subject: id,
  description: '',
  status: 'pending',
  owner: null,
  blockedBy: [],
  priority: 0,
  attempts: 0,
  lease: null,
  result: null,
  notes: [],
  metadata: {},
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  ...fields,
});

async function writeTasks(tasks: Task[]): Promise<void> {
  await mkdir(join(repo.root, '.tasks'), { recursive: true });
  for (let i = 0; i < tasks.length; i += 500) {
    await Promise.all(tasks.slice(i, i + 500).map((t) => writeFile(join(repo.root, '.tasks', `${t.id}.json`), JSON.stringify(t))));
  }
}

describe('the task index', () => {
  it('at 10,000 tasks, list and ready read no file; one change reads one file', async () => {
    // root, 4,999 tasks waiting on it, 5,000 free ones.
    const tasks = [full('root'), ...Array.from({ length: 9_999 }, (_, i) => full(`t${i}`, { blockedBy: i < 4_999 ? ['root'] : [] }))];
    await writeTasks(tasks);
    const store = await TaskStore.open(repo.root);
    expect(store.readCount).toBe(10_000);

    const started = performance.now();
    for (let i = 0; i < 20; i++) {
      expect(store.list()).toHaveLength(10_000);
      expect(store.ready('w1')).toHaveLength(5_001);
      expect(store.list({ status: 'pending' })).toHaveLength(10_000);
    }
    const perCall = (performance.now() - started) / 60;
    expect(store.readCount).toBe(10_000);
    expect(perCall).toBeLessThan(100); // in memory: milliseconds, where re-reading 10,000 files would take seconds

    // Another process completes the root; the watcher hint re-reads only that file.
    await writeFile(join(repo.root, '.tasks', 'root.json'), JSON.stringify(full('root', { status: 'completed' })));
    const refreshed = await store.refresh(join(repo.root, '.tasks', 'root.json'));
    expect(store.readCount).toBe(10_001);
    expect(refreshed.kind === 'updated' && refreshed.nowReady.length).toBe(4_999);
    expect(store.ready()).toHaveLength(9_999);
    expect(store.readCount).toBe(10_001);
  });

  it('refresh: a new file enters, a changed one is replaced, a deleted one leaves', async () => {
    await writeTasks([full('a'), full('b', { blockedBy: ['a'] })]);
    const store = await TaskStore.open(repo.root);
    await writeTasks([full('c')]);
    expect((await store.refresh('.tasks/c.json')).kind).toBe('updated');
    expect(store.get('c')).toBeDefined();
    await rm(join(repo.root, '.tasks', 'a.json'));
    expect(await store.refresh('a')).toEqual({ kind: 'removed', id: 'a', nowReady: [] });
    expect(store.get('a')).toBeUndefined();
    expect(store.blockers('b')).toEqual(['a']);
    expect(store.problems()).toEqual([{ file: '.tasks/b.json', field: 'blockedBy.0', message: 'no task "a"' }]);
    await writeTasks([full('a', { status: 'completed' })]);
    const back = await store.refresh('a');
    expect(back.kind === 'updated' && back.nowReady).toEqual(['b']);
    expect(store.problems()).toEqual([]);
  });

  it('refresh ignores temp files, lock folders, other folders and traversal paths', async () => {
    const store = await TaskStore.open(repo.root);
    for (const path of ['.tasks/.a.json.123.tmp', '.tasks/.a.json.lock', '.mailboxes/a.json', '../x', '/etc/passwd', '.tasks/notes.txt']) {
      expect((await store.refresh(path)).kind).toBe('ignored');
    }
    expect(store.readCount).toBe(0);
  });

  it('a file that turns invalid leaves the index and becomes a problem; fixing it brings it back', async () => {
    await writeTasks([full('a')]);
    const store = await TaskStore.open(repo.root);
    await writeFile(join(repo.root, '.tasks', 'a.json'), '{"subject": 42}');
    const r = await store.refresh('a');
    expect(r).toEqual({ kind: 'invalid', problems: [{ file: '.tasks/a.json', field: 'subject', message: expect.stringContaining('expected string') }] });
    expect(store.get('a')).toBeUndefined();
    await writeTasks([full('a')]);
    await store.refresh('a');
    expect(store.get('a')).toBeDefined();
    expect(store.problems()).toEqual([]);
  });
});
