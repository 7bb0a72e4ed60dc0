/**
 * `teamd top` asks the status reader about its kept board every refresh; the
 * board's problems (a cycle search), blockers and readiness are kept while
 * its generation stays (issue 24). Kept must mean unchanged: a board changed
 * shows in the next refresh's status exactly as a plain read of the board.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { TeamConfigSchema } from '../../src/config/schema.js';
import { keptBoard } from '../../src/dashboard/kept-board.js';
import { LiveBoard } from '../../src/dashboard/live-board.js';
import { readTeamStatus } from '../../src/observe/status.js';
import { TaskStore } from '../../src/store/tasks/index.js';
import { tempRepo } from '../store/temp-repo.js';

let repo: Awaited<ReturnType<typeof tempRepo>>;
beforeEach(async () => void (repo = await tempRepo('teamd-kept-board-')));
afterEach(async () => repo.cleanup());

const config = TeamConfigSchema.parse({});
const tasksOf = async (store: TaskStore) => (await readTeamStatus(repo.root, config, 0, store)).tasks;

it('answers once per generation, and a changed board gives what a plain read gives', async () => {
  const store = await TaskStore.open(repo.root);
  await store.create({ id: 'a', subject: 'first', blockedBy: ['b'] });
  await store.create({ id: 'b', subject: 'second' });
  const board = new LiveBoard(repo.root);
  const live = await board.current(true);
  const view = keptBoard(live, board.generation);
  expect(keptBoard(live, board.generation)).toBe(view);
  expect(view.problems()).toBe(view.problems());
  expect(view.list()).toBe(view.list());
  expect(await tasksOf(view)).toEqual(await tasksOf(await TaskStore.open(repo.root, { normalise: false })));
  // b blocked by a: a cycle, seen at the next generation.
  const file = join(repo.root, '.tasks', 'b.json');
  writeFileSync(file, JSON.stringify({ ...JSON.parse(readFileSync(file, 'utf8')), blockedBy: ['a'] }));
  board.changed(join(repo.root, '.tasks'), 'b.json');
  const next = await board.current(true);
  const after = keptBoard(next, board.generation);
  expect(after).not.toBe(view);
  const plain = await tasksOf(await TaskStore.open(repo.root, { normalise: false }));
  expect(plain.problems.length).toBeGreaterThan(0);
  expect(await tasksOf(after)).toEqual(plain);
  // What is not derived from the board goes to the store itself.
  expect(after.get('a')).toEqual(next.get('a'));
  expect(after.list()).toEqual(next.list());
});
