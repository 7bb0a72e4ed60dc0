/**
 * What a sandboxed teammate cannot write itself, the lead writes for it
 * (real bubblewrap): a cron job it creates lands in the lead's `.cron/`, a
 * memory in the lead's `.memory/`, and
 * its transcript in the lead's `.team/state`, read by `teamd logs`.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { findBwrap } from '../../../src/teammate/hosts/sandbox.js';
import { makeTeamRepo, startLead, teamPerTest, until } from '../../e2e/support/harness.js';
import { teamdLogs } from './support/teamd-logs.js';

const bwrap = findBwrap();
const team = teamPerTest();

const script = {
  rules: [
    {
      conversation: 'Task t1:',
      turn: 0,
      content: [
        { type: 'tool_use' as const, name: 'memory_write', input: { name: 'build-command', description: 'how to build', content: 'npm run build' } },
        { type: 'tool_use' as const, name: 'cron_create', input: { id: 'weekly-check', cron: '0 0 9 * * 1', prompt: 'check the build', to: 'ann' } },
      ],
    },
    { conversation: 'Task t1:', turn: 1, match: 'Scheduled recurring cron job weekly-check', content: [{ type: 'text' as const, text: 'scheduled the weekly check' }] },
    { conversation: 'Task t1:', turn: 1, content: [{ type: 'text' as const, text: 'could not schedule' }] },
  ],
};

it.skipIf(!bwrap)('a sandboxed teammate creates a cron job and writes a memory through the lead, and its transcript is the lead\'s', async () => {
  const repo = team.repo(
    makeTeamRepo({ script, config: { host: { kind: 'sandbox' }, teammates: [{ name: 'ann' }], permissions: { defaultMode: 'bypassPermissions' } } }),
  );
  repo.writeTask('t1', { subject: 'schedule a check' });
  const { lead } = await startLead(repo);
  team.lead(lead);
  await until(lead, () => lead.tasks.get('t1')?.status === 'completed', 60_000, 't1 completed');
  expect(lead.tasks.get('t1')!.result?.summary).toContain('scheduled the weekly check');
  const job = join(repo.dir, '.cron', 'weekly-check.json');
  expect(existsSync(job)).toBe(true);
  expect(JSON.parse(readFileSync(job, 'utf8'))).toMatchObject({ prompt: 'check the build', to: 'ann' });
  const memory = join(repo.dir, '.memory');
  expect(readFileSync(join(memory, 'build-command.md'), 'utf8')).toContain('npm run build');
  expect(readFileSync(join(memory, 'MEMORY.md'), 'utf8')).toContain('[build-command](build-command.md)');
  await lead.stop('test over');
  const logs = await teamdLogs(repo.dir, 'ann');
  expect(logs.code, logs.stderr).toBe(0);
  expect(logs.lines).toContain('scheduled the weekly check');
}, 90_000);
