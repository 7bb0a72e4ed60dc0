import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import type { Lead } from '../../src/lead/lead.js';
import { processAlive } from '../../src/tools/process-group.js';
import { makeTeamRepo, startLead, until, type TeamRepo } from './support/harness.js';

let repo: TeamRepo;
let lead: Lead | undefined;
afterEach(async () => {
  await lead?.stop('test over');
  repo.cleanup();
});

it('a teammate killed mid-task: its running command is ended, its task reclaimed and completed by another', async () => {
  // First attempt leaves a marker (with the pid of its shell, the leader of the command's process group) and
  // hangs in bash; the retry sees the marker and finishes.
  // (`$$$$`: the script's substitution turns `$$` into `$`, so the shell sees `$$`.)
  const command = 'if [ -f attempted ]; then echo second-attempt; else echo $$$$ > attempted; sleep 60; fi';
  repo = makeTeamRepo({
    script: {
      rules: [
        { conversation: 'Task slow:', turn: 0, times: 'always', content: [{ type: 'tool_use', name: 'bash', input: { command } }] },
        { conversation: 'Task slow:', turn: 1, match: 'second-attempt', content: [{ type: 'text', text: 'finished on the second attempt' }] },
      ],
    },
    config: { teammates: [{ name: 'ann' }, { name: 'bob' }], worktrees: { mode: 'off' }, permissions: { defaultMode: 'bypassPermissions' } },
  });
  repo.writeTask('slow', { subject: 'a slow task' });
  const started = await startLead(repo);
  lead = started.lead;
  const l = lead;
  const marker = join(repo.dir, 'attempted');
  await until(l, () => existsSync(marker) && readFileSync(marker, 'utf8').trim() !== '', 30_000, 'the first attempt to start');
  const shell = Number(readFileSync(marker, 'utf8').trim());
  expect(processAlive(shell)).toBe(true);
  const first = l.tasks.get('slow')!.owner!;
  await l.killTeammate(first);
  // A terminated thread cleans nothing up; the lead ends the process group its command started.
  await until(l, () => !processAlive(shell), 10_000, 'the dead teammate\'s command to be ended');
  await until(l, () => l.tasks.get('slow')?.status === 'completed', 60_000, 'the task to complete');
  const task = l.tasks.get('slow')!;
  expect(task.attempts).toBe(1);
  expect(task.result?.summary).toContain('second attempt');
  expect(started.events.some((e) => e.type === 'teammate_crashed' && e.agent === first)).toBe(true);
  expect(started.events.some((e) => e.type === 'task_reclaimed' && e.task === 'slow')).toBe(true);
  await until(l, () => l.pool.stateOf(first)?.state === 'idle', 30_000, 'the crashed teammate to be back');
}, 120_000);
