/**
 * `teamd top`'s board is read whole again every minute (a lost watch event
 * must not stay lost); that read opens only the files that changed since the
 * last one (issue 24: 10,000 finished tasks on the board were re-read each time).
 */
import { readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { LiveBoard } from '../../src/dashboard/live-board.js';
import { TaskStore } from '../../src/store/tasks/index.js';
import { tempRepo } from '../store/temp-repo.js';

let repo: Awaited<ReturnType<typeof tempRepo>>;
beforeEach(async () => void (repo = await tempRepo('teamd-board-')));
afterEach(async () => repo.cleanup());
const file = (id: string): string => join(repo.root, '.tasks', `${id}.json`);
/** A whole second a minute ago: a time the file system keeps exactly, so a write can put it back. */
const past = Math.floor(Date.now() / 1000) - 60;

it('a whole re-read takes unchanged files from memory and reads changed ones', async () => {
  const store = await TaskStore.open(repo.root);
  await store.create({ id: 'a', subject: 'first words' });
  utimesSync(file('a'), past, past);
  const board = new LiveBoard(repo.root);
  expect((await board.current(false)).get('a')?.subject).toBe('first words');
  // Other bytes of the same size in the same inode, the same mtime: only a read would see them.
  writeFileSync(file('a'), readFileSync(file('a'), 'utf8').replace('first words', 'other words'));
  utimesSync(file('a'), past, past);
  expect((await board.current(false)).get('a')?.subject).toBe('first words');
  utimesSync(file('a'), past + 1, past + 1); // the write seen: its stamp moved
  expect((await board.current(false)).get('a')?.subject).toBe('other words');
});
