/**
 * Teammates learn of task changes from the lead's index (the tasks
 * themselves, sent over IPC), not by re-reading files. A task freed by
 * another task's completion — written by a teammate, or by the lead's merge
 * queue — must reach an idle teammate at once: the idle re-check is set to
 * ten minutes here, so a missed wake fails the test.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { genericTaskScript, makeTeamRepo, startLead, teamPerTest } from './support/harness.js';

const team = teamPerTest();

it.each([
  ['a teammate (worktrees off)', 'off'],
  ["the lead's merge queue (worktrees per task)", 'per-task'],
])('a task freed by a completion written by %s reaches the idle teammate without a re-check', async (_who, mode) => {
  const r = team.repo(makeTeamRepo({
    script: genericTaskScript(),
    config: { teammates: [{ name: 'ann' }, { name: 'bob' }], worktrees: { mode } },
  }));
  const started = await startLead(r, { idleRecheckMs: 600_000 });
  const l = team.lead(started.lead);
  r.writeTask('a', { subject: 'make a' });
  r.writeTask('b', { subject: 'make b', blockedBy: ['a'] });
  r.writeTask('c', { subject: 'make c', blockedBy: ['b'] });
  await l.waitFor((e) => e.type === 'task_completed' && e.task === 'c', 60_000);
  const order = started.events.flatMap((e) => (e.type === 'task_claimed' ? [e.task] : []));
  expect(order).toEqual(['a', 'b', 'c']);
  // The order above shows each teammate saw each freed task; the lead's index ends where the files are.
  const byId = l.tasks.list().sort((x, y) => x.id.localeCompare(y.id)); // dropped files: createdAt is when read
  expect(byId.map((t) => [t.id, t.status])).toEqual([
    ['a', 'completed'],
    ['b', 'completed'],
    ['c', 'completed'],
  ]);
  // A stop right after the last completion waits for its tidy-up: no merged task's worktree is left.
  await l.stop('test over');
  if (mode === 'per-task') expect(['a', 'b', 'c'].filter((id) => existsSync(join(r.dir, '.worktrees', id)))).toEqual([]);
}, 90_000);
