/**
 * `teamd run` stopped with Ctrl-C: the team stops gracefully — the running
 * command is interrupted, the task goes back to the board with a note — and
 * the run returns a summary marked interrupted instead of waiting forever.
 */
import { afterEach, expect, it } from 'vitest';
import { runGoal } from '../../src/lead/goal.js';
import { formatSummary } from '../../src/lead/summary.js';
import { tasksOnDisk } from '../faults/support/files.js';
import { makeTeamRepo, type TeamRepo } from './support/harness.js';

let repo: TeamRepo | undefined;
afterEach(() => repo?.cleanup());

it('an interrupted goal run stops the team and puts the unfinished task back on the board', async () => {
  repo = makeTeamRepo({
    script: {
      rules: [
        {
          agent: 'lead',
          match: 'Goal:',
          content: [{ type: 'tool_use', name: 'task_write', input: { id: 'hang', subject: 'wait for a file that never comes' } }],
        },
        { agent: 'lead', afterTool: 'task_write', content: [{ type: 'text', text: 'Planned.' }] },
        {
          conversation: 'Task hang:',
          turn: 0,
          content: [{ type: 'tool_use', name: 'bash', input: { command: 'while [ ! -f never ]; do sleep 0.05; done' } }],
        },
      ],
    },
    config: { teammates: [{ name: 'ann' }], worktrees: { mode: 'off' }, permissions: { defaultMode: 'bypassPermissions' } },
  });
  const interrupt = new AbortController();
  const result = await runGoal({
    repoRoot: repo.dir,
    goal: 'never finishes',
    signal: interrupt.signal,
    onEvent: (e) => {
      if (e.type === 'task_claimed' && e.task === 'hang') interrupt.abort(); // Ctrl-C while it works
    },
  });
  expect(result.ok).toBe(true);
  if (!result.ok) return;
  expect(result.summary.interrupted).toBe(true);
  expect(result.summary.tasks.pending).toBe(1);
  expect(formatSummary(result.summary)).toMatch(/^Interrupted after .*1 back on the board/);
  const task = tasksOnDisk(repo.dir).get('hang')!;
  expect(task.status).toBe('pending');
  expect(task.owner).toBeNull();
}, 60_000);
