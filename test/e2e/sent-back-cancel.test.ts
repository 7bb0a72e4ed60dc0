/**
 * A task sent back after a refused merge waits on the board (pending, its
 * worktree kept for its owner); cancelled then with the real `teamd task
 * cancel`, its worktree goes and it is never merged. Real worker threads, real
 * git, a scripted model; its owner is kept busy on another task meanwhile.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { teamd } from '../cli/run-teamd.js';
import { genericTaskScript, makeTeamRepo, startLead, teamPerTest, until } from './support/harness.js';

const team = teamPerTest();
const HANG = {
  conversation: 'Task z-hang:',
  turn: 0,
  times: 'always' as const,
  content: [
    {
      type: 'tool_use' as const,
      name: 'bash',
      input: { command: 'while [ ! -f never ]; do sleep 0.05; done' },
    },
  ],
};

it('sent back after a refused merge, then cancelled: its worktree goes, it is never merged', async () => {
  const repo = team.repo(
    makeTeamRepo({
      script: genericTaskScript([HANG]),
      config: {
        teammates: [{ name: 'ann' }],
        worktrees: { mode: 'per-task' },
        permissions: { defaultMode: 'bypassPermissions' },
      },
    }),
  );
  // The verify refuses a1 once ann is busy on z-hang: a1 waits pending, with its worktree, nobody on it.
  const hangFile = join(repo.dir, '.tasks', 'z-hang.json');
  const configFile = join(repo.dir, '.team', 'config.json');
  const config = JSON.parse(readFileSync(configFile, 'utf8')) as { worktrees: Record<string, unknown> };
  config.worktrees.verify = `while ! grep -q '"in_progress"' '${hangFile}'; do sleep 0.05; done; echo "FAIL: a1"; exit 1`;
  writeFileSync(configFile, JSON.stringify(config));
  repo.writeTask('a1', { subject: 'refused once' });
  repo.writeTask('z-hang', { subject: 'keeps ann busy' });
  const { lead, events } = await startLead(repo);
  team.lead(lead);
  await lead.waitFor((e) => e.type === 'merge_refused' && e.task === 'a1', 60_000);
  await until(lead, () => lead.tasks.get('a1')?.status === 'pending', 20_000, 'a1 back on the board');
  expect(existsSync(join(repo.dir, '.worktrees', 'a1'))).toBe(true);

  const cancelled = await teamd(repo.dir, 'task', 'cancel', 'a1');
  expect(cancelled.code, cancelled.stderr).toBe(0);
  await until(lead, () => !existsSync(join(repo.dir, '.worktrees', 'a1')), 20_000, "a1's worktree to go");
  expect(lead.tasks.get('a1')?.status).toBe('cancelled');
  expect(repo.git('worktree', 'list')).not.toMatch(/\.worktrees\/a1\b/);
  expect(events.some((e) => e.type === 'merge_merged' && e.task === 'a1')).toBe(false);
  expect(repo.git('ls-tree', '-r', '--name-only', 'teamd/integration')).not.toContain('out/a1.txt');
  expect(events.filter((e) => e.type === 'task_claimed' && e.task === 'a1')).toHaveLength(1);
}, 90_000);
