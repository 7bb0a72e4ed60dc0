import { readFile, writeFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TaskStore } from '../../../src/store/tasks/index.js';
import { TaskSchema } from '../../../src/store/types.js';
import { tempRepo } from '../temp-repo.js';

let repo: Awaited<ReturnType<typeof tempRepo>>;
beforeEach(async () => {
  repo = await tempRepo();
  await mkdir(join(repo.root, '.tasks'));
});
afterEach(async () => repo.cleanup());

const drop = (name: string, value: unknown) => writeFile(join(repo.root, '.tasks', name), JSON.stringify(value));
const onDisk = async (name: string): Promise<unknown> => JSON.parse(await readFile(join(repo.root, '.tasks', name), 'utf8'));

describe('a dropped task file', () => {
  it('with only a subject is accepted, gets its id from the file name, and is written back in full', async () => {
    await drop('write-docs.json', { subject: 'Write the docs' });
    const store = await TaskStore.open(repo.root, { now: () => new Date('2026-05-01T00:00:00.000Z') });
    expect(store.get('write-docs')).toMatchObject({ id: 'write-docs', status: 'pending', blockedBy: [], createdAt: '2026-05-01T00:00:00.000Z' });
    expect(TaskSchema.parse(await onDisk('write-docs.json'))).toEqual(store.get('write-docs'));
    expect(store.ready().map((t) => t.id)).toEqual(['write-docs']);
  });

  it('may carry description, blockedBy and owner', async () => {
    await drop('a.json', { subject: 'a' });
    await drop('b.json', { subject: 'b', description: 'after a', blockedBy: ['a'], owner: 'worker-2' });
    const store = await TaskStore.open(repo.root);
    expect(store.get('b')).toMatchObject({ description: 'after a', blockedBy: ['a'], owner: 'worker-2' });
    expect(store.blockers('b')).toEqual(['a']);
  });

  it('arriving while the store is open is normalised on refresh (the watcher path)', async () => {
    const store = await TaskStore.open(repo.root);
    await drop('late.json', { subject: 'late' });
    const r = await store.refresh(join(repo.root, '.tasks', 'late.json'));
    expect(r.kind).toBe('updated');
    expect(await onDisk('late.json')).toMatchObject({ id: 'late', status: 'pending', notes: [] });
  });

  it('is left as it is when normalising is off (teamd validate)', async () => {
    await drop('a.json', { subject: 'a' });
    const store = await TaskStore.open(repo.root, { normalise: false });
    expect(store.get('a')?.subject).toBe('a');
    expect(await onDisk('a.json')).toEqual({ subject: 'a' });
  });

  it('with an id that differs from its file name is a problem, not a task', async () => {
    await drop('a.json', { id: 'b', subject: 'a' });
    const store = await TaskStore.open(repo.root);
    expect(store.get('a')).toBeUndefined();
    expect(store.problems()).toEqual([{ file: '.tasks/a.json', field: 'id', message: 'must equal the file name "a"' }]);
    expect(await onDisk('a.json')).toEqual({ id: 'b', subject: 'a' });
  });
});
