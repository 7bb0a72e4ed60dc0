/**
 * Which task branches gc deletes: merged ones of completed tasks, never an
 * unmerged one or the integration branch; none while a lead runs (the lead
 * deletes each after its merge, in its own git lane), none with keepBranches.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { TeamConfigSchema } from '../../src/config/schema.js';
import { collectGarbage } from '../../src/history/gc.js';
import { TaskStore } from '../../src/store/tasks/index.js';
import { tempRepo } from '../store/temp-repo.js';

let repo: { root: string; cleanup: () => Promise<void> };
beforeEach(async () => (repo = await tempRepo('teamd-gc-branches-')));
afterEach(() => repo.cleanup());

const git = (...args: string[]) => execFileSync('git', args, { cwd: repo.root, encoding: 'utf8' }).trim();
const branches = () => git('branch', '--format=%(refname:short)').split('\n').sort();

async function setUp(): Promise<TaskStore> {
  git('init', '-q', '-b', 'main');
  writeFileSync(join(repo.root, 'a.txt'), 'a\n');
  git('add', 'a.txt');
  git('commit', '-qm', 'base');
  git('branch', 'teamd/integration');
  for (const id of ['merged', 'unmerged', 'pending']) {
    git('checkout', '-q', '-b', `teamd/${id}`, 'main');
    writeFileSync(join(repo.root, `${id}.txt`), `${id}\n`);
    git('add', '.');
    git('commit', '-qm', id);
  }
  git('checkout', '-q', 'teamd/integration');
  git('merge', '-q', '--no-ff', '-m', 'Merge task merged', 'teamd/merged');
  git('merge', '-q', '--no-ff', '-m', 'Merge task pending', 'teamd/pending');
  git('checkout', '-q', 'main');
  const tasks = await TaskStore.open(repo.root);
  for (const id of ['merged', 'unmerged', 'pending']) await tasks.create({ id, subject: id });
  for (const id of ['merged', 'unmerged']) {
    await tasks.claim(id, 'w', 60_000);
    await tasks.complete(id, 'w', 'done');
  }
  return tasks;
}

const config = (extra: object = {}) => TeamConfigSchema.parse({ ...extra });

it('deletes only the merged branch of a completed task; a dry run only names it', async () => {
  const tasks = await setUp();
  const all = branches();
  const dry = await collectGarbage(repo.root, config(), { tasks, dryRun: true });
  expect(dry.branches).toEqual(['teamd/merged']);
  expect(branches()).toEqual(all);
  const run = await collectGarbage(repo.root, config(), { tasks });
  expect(run.branches).toEqual(['teamd/merged']);
  expect(branches()).toEqual(all.filter((b) => b !== 'teamd/merged'));
});

it('leaves every branch while a lead runs, for the lead (branches: false), and with keepBranches', async () => {
  const tasks = await setUp();
  const all = branches();
  const running = await collectGarbage(repo.root, config(), { tasks, leadRunning: true });
  expect(running.branches).toEqual([]);
  expect(running.notes.join('\n')).toMatch(/left to the running lead/);
  expect((await collectGarbage(repo.root, config(), { tasks, branches: false })).branches).toEqual([]);
  const kept = await collectGarbage(repo.root, config({ keepBranches: true }), { tasks });
  expect(kept.branches).toEqual([]);
  expect(branches()).toEqual(all);
});
