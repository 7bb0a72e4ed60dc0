/**
 * An agent review interrupted by a lead restart: the first lead stops while
 * its reviewer's answer is on the way; the task stays in review (not merged,
 * not back to its owner), and the next lead reviews it again and merges it.
 * Real worker threads, real git, a scripted reviewer.
 */
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import type { ScriptInput } from '../../src/model/scripted/schema.js';
import { genericTaskScript, makeTeamRepo, startLead, teamPerTest, until } from './support/harness.js';

const team = teamPerTest();
const REVIEW = 'Review the change for task t1';

function script(slowReview: boolean): ScriptInput {
  const s = genericTaskScript();
  const accept = {
    name: 'accept',
    conversation: REVIEW,
    times: 'always' as const,
    content: [{ type: 'text' as const, text: 'ACCEPT\nlooks right' }],
  };
  // The first lead's reviewer waits (honouring the abort) until the lead stops.
  const slow = { ...accept, name: 'slow', delayMs: 600_000 };
  s.rules = [slowReview ? slow : accept, ...(s.rules ?? [])];
  return s;
}

const reviewerStarted = (dir: string): boolean => {
  const d = join(dir, '.team', 'state', 'transcripts', 'reviewer');
  return existsSync(d) && readdirSync(d).length > 0;
};

it('an agent review cut by a lead restart is done again by the next lead, and the task merges', async () => {
  const repo = team.repo(
    makeTeamRepo({
      script: script(true),
      config: {
        teammates: [{ name: 'ann' }],
        worktrees: { mode: 'per-task' },
        permissions: { defaultMode: 'bypassPermissions' },
        review: 'agent',
      },
    }),
  );
  repo.writeTask('t1', { subject: 'write t1' });
  const first = await startLead(repo);
  await first.lead.waitFor(
    (e) => e.type === 'review_requested' && e.task === 't1' && e.mode === 'agent',
    60_000,
  );
  await until(first.lead, () => reviewerStarted(repo.dir), 20_000, 'the reviewer to start');
  await first.lead.stop('restart');
  expect(first.lead.tasks.get('t1')?.status).toBe('in_progress');
  expect(first.events.some((e) => e.type === 'review_answered')).toBe(false);
  expect(
    repo.git('branch', '--list', 'teamd/integration').trim()
      ? repo.git('ls-tree', '-r', '--name-only', 'teamd/integration')
      : '',
  ).not.toContain('out/t1.txt');

  writeFileSync(repo.scriptPath, JSON.stringify(script(false)));
  const second = await startLead(repo);
  team.lead(second.lead);
  await until(
    second.lead,
    () => second.lead.tasks.get('t1')?.status === 'completed',
    60_000,
    't1 reviewed again and merged',
  );
  expect(second.events.filter((e) => e.type === 'review_answered' && e.task === 't1')).toMatchObject([
    { accepted: true, by: 'reviewer' },
  ]);
  expect(repo.git('ls-tree', '-r', '--name-only', 'teamd/integration')).toContain('out/t1.txt');
  expect(second.events.some((e) => e.type === 'task_claimed' && e.task === 't1')).toBe(false);
}, 120_000);
