/**
 * Review before merge, whole teams: under `human` a finished task waits in
 * review (the task file says so) until a person answers with the real CLI;
 * under `agent` the reviewer agent (scripted) rejects, then accepts, and a
 * reviewer that cannot decide hands the task over to a person.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { needsYou } from '../../src/notify/needs-you.js';
import type { LoggedEvent } from '../../src/observe/types.js';
import { spawnCli } from './support/cli.js';
import { genericTaskScript, makeTeamRepo, startLead, teamPerTest, until, type TeamRepo } from './support/harness.js';

const team = teamPerTest();

async function cli(repo: TeamRepo, ...args: string[]): Promise<string> {
  const run = spawnCli([...args, '--dir', repo.dir]);
  expect(await run.exited, run.output()).toBe(0);
  return run.output();
}

const count = (events: LoggedEvent[], type: string, task: string) => events.filter((e) => e.type === type && (e as { task?: string }).task === task).length;
const onIntegration = (repo: TeamRepo, path: string): boolean => repo.git('ls-tree', '-r', '--name-only', 'teamd/integration').split('\n').includes(path);
const fileOf = (repo: TeamRepo, id: string) => JSON.parse(readFileSync(join(repo.dir, '.tasks', `${id}.json`), 'utf8')) as { status: string; metadata: { merge?: { state: string } } };

const config = (extra: Record<string, unknown>) => ({ teammates: [{ name: 'ann' }], worktrees: { mode: 'per-task' }, permissions: { defaultMode: 'bypassPermissions' }, ...extra });

it('human review: waits in review with its diff; reject returns it to its owner with the reason; accept merges it', async () => {
  const repo = team.repo(makeTeamRepo({ script: genericTaskScript(), config: config({ review: 'human' }) }));
  repo.writeTask('t1', { subject: 'write t1' });
  const { lead, events } = await startLead(repo);
  team.lead(lead);
  await until(lead, () => count(events, 'review_requested', 't1') === 1, 60_000, 'the review request');
  expect(fileOf(repo, 't1')).toMatchObject({ status: 'in_progress', metadata: { merge: { state: 'review' } } });
  const request = events.find((e) => e.type === 'review_requested')!;
  expect(needsYou(request)).toMatchObject({ kind: 'review', task: 't1' });
  expect(await cli(repo, 'review')).toMatch(/t1\s+ann\s+human/);
  const shown = await cli(repo, 'review', 't1');
  expect(shown).toContain('out/t1.txt');
  expect(shown).toContain('+done t1');
  expect(count(events, 'merge_merged', 't1')).toBe(0);

  expect(await cli(repo, 'reject', 't1', '--reason', 'name the file better')).toContain('back to ann');
  await until(lead, () => count(events, 'review_requested', 't1') === 2, 60_000, 'the second review request');
  expect(count(events, 'task_claimed', 't1')).toBe(2);
  expect(lead.tasks.get('t1')!.notes.some((n) => n.text.includes('name the file better'))).toBe(true);
  expect(onIntegration(repo, 'out/t1.txt')).toBe(false);

  await cli(repo, 'accept', 't1');
  await until(lead, () => lead.tasks.get('t1')?.status === 'completed', 60_000, 'the merge');
  expect(onIntegration(repo, 'out/t1.txt')).toBe(true);
  expect(lead.tasks.get('t1')!.attempts).toBe(1);
}, 150_000);

it('agent review: the reviewer rejects once then accepts; one that cannot decide hands over to a person', async () => {
  const script = genericTaskScript();
  script.rules = [
    { name: 'unsure', conversation: 'Review the change for task t2', times: 'always', content: [{ type: 'text', text: 'I cannot tell from this diff.' }] },
    { name: 'reject once', conversation: 'Review the change for task t1', times: 1, content: [{ type: 'text', text: 'REJECT: add a trailing summary line' }] },
    { name: 'accept', conversation: 'Review the change for task t1', times: 'always', content: [{ type: 'text', text: 'ACCEPT\nlooks right' }] },
    ...(script.rules ?? []),
  ];
  const repo = team.repo(makeTeamRepo({ script, config: config({ review: 'agent' }) }));
  repo.writeTask('t1', { subject: 'write t1' });
  repo.writeTask('t2', { subject: 'write t2' });
  const { lead, events } = await startLead(repo);
  team.lead(lead);
  await until(lead, () => lead.tasks.get('t1')?.status === 'completed', 90_000, 't1 to merge after its second review');
  const answers = events.filter((e) => e.type === 'review_answered' && e.task === 't1');
  expect(answers.map((e) => (e as { accepted: boolean }).accepted)).toEqual([false, true]);
  expect(answers.map((e) => (e as { by: string }).by)).toEqual(['reviewer', 'reviewer']);
  expect(lead.tasks.get('t1')!.notes.some((n) => n.text.includes('add a trailing summary line'))).toBe(true);
  expect(onIntegration(repo, 'out/t1.txt')).toBe(true);

  await until(lead, () => events.some((e) => e.type === 'review_requested' && e.task === 't2' && e.mode === 'human'), 60_000, 't2 to be handed over');
  const handed = events.find((e) => e.type === 'review_requested' && e.task === 't2' && e.mode === 'human')!;
  expect((handed as { reason?: string }).reason).toContain('could not decide');
  expect(needsYou(handed)?.kind).toBe('review');
  expect(onIntegration(repo, 'out/t2.txt')).toBe(false);
  expect(await cli(repo, 'review')).toMatch(/t2\s+ann\s+human/);
}, 150_000);
