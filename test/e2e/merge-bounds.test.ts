/**
 * Every loop has a bound: a verify that always fails sends the task back to
 * its owner `maxAttempts` times at most, then the task fails with the last
 * output; the task file keeps only the last few refusal notes, the full
 * outputs are in files.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { KEPT_REFUSAL_NOTES } from '../../src/lead/merge-outcomes.js';
import { genericTaskScript, makeTeamRepo, startLead, teamPerTest, until } from './support/harness.js';

const team = teamPerTest();

it('a verify that always fails: the task fails after maxAttempts refusals, with the output, and few notes', async () => {
  const verify = 'echo "FAIL: test_parser expected 3 got 4"; exit 1';
  const repo = team.repo(
    makeTeamRepo({
      script: genericTaskScript(),
      config: { teammates: [{ name: 'ann' }], maxAttempts: 4, worktrees: { mode: 'per-task', verify }, permissions: { defaultMode: 'bypassPermissions' } },
    }),
  );
  repo.writeTask('t1', { subject: 'breaks the tests' });
  const { lead, events } = await startLead(repo);
  team.lead(lead);
  await until(lead, () => lead.tasks.get('t1')?.status === 'failed', 90_000, 'the task to fail');
  const task = lead.tasks.get('t1')!;
  expect(task.attempts).toBe(4);
  expect(events.filter((e) => e.type === 'merge_refused')).toHaveLength(4);
  expect(events.filter((e) => e.type === 'task_claimed' && e.task === 't1')).toHaveLength(4);
  expect(events.some((e) => e.type === 'task_failed' && e.task === 't1')).toBe(true);
  expect(task.result?.summary).toContain('FAIL: test_parser expected 3 got 4');
  const refusalNotes = task.notes.filter((n) => n.text.startsWith('Merge refused'));
  expect(refusalNotes).toHaveLength(KEPT_REFUSAL_NOTES);
  expect(refusalNotes.at(-1)!.text).toContain('attempt 4 of 4');
  for (let n = 1; n <= 4; n++) {
    const file = join(repo.dir, '.team', 'state', 'outputs', 't1', `merge-${n}.txt`);
    expect(existsSync(file)).toBe(true);
    expect(readFileSync(file, 'utf8')).toContain('FAIL: test_parser');
  }
  expect(readFileSync(join(repo.dir, '.tasks', 't1.json'), 'utf8').length).toBeLessThan(20_000);
  expect(repo.git('ls-tree', '-r', '--name-only', 'teamd/integration')).not.toContain('out/t1.txt');
}, 120_000);

it('a merged task branch is deleted (unless keepBranches) and the merge worktree is removed at stop', async () => {
  const repo = team.repo(makeTeamRepo({ script: genericTaskScript(), config: { teammates: [{ name: 'ann' }], worktrees: { mode: 'per-task' }, permissions: { defaultMode: 'bypassPermissions' } } }));
  repo.writeTask('t1', { subject: 'one' });
  const { lead } = await startLead(repo);
  await until(lead, () => lead.tasks.get('t1')?.status === 'completed', 60_000, 'the merge');
  await until(lead, () => !repo.git('branch', '--list', 'teamd/t1').trim(), 10_000, 'the branch to go');
  expect(existsSync(join(repo.dir, '.worktrees', '.merge'))).toBe(true);
  await lead.stop('done');
  expect(existsSync(join(repo.dir, '.worktrees', '.merge'))).toBe(false);
  expect(repo.git('worktree', 'list')).not.toContain('.merge');
}, 90_000);
