/**
 * With a running lead: a task created through `teamd mcp` (its own process)
 * is a file the lead's watcher picks up, and the team completes and merges
 * it; `status` over MCP sees the running lead and the finished task.
 */
import { describe, expect, it } from 'vitest';
import { genericTaskScript, makeTeamRepo, startLead, teamPerTest, until } from '../e2e/support/harness.js';
import { connectStdio } from './support.js';

const team = teamPerTest();

describe('teamd mcp beside a running team', () => {
  it('a task created over MCP is completed by the team', async () => {
    const repo = team.repo(makeTeamRepo({ script: genericTaskScript(), config: { teammates: [{ name: 'ann' }], worktrees: { mode: 'per-task' } } }));
    const { lead } = await startLead(repo);
    team.lead(lead);
    await using s = await connectStdio(repo.dir);
    expect(await s.json('task_create', { subject: 'make t1', id: 't1' })).toMatchObject({ id: 't1', status: 'pending' });
    await until(lead, () => lead.tasks.get('t1')?.status === 'completed', 60_000, 't1 completed');
    expect(repo.git('ls-tree', '--name-only', 'teamd/integration', 'out/').trim()).toBe('out/t1.txt');
    const status = await s.json<{ lead: { running: boolean }; tasks: { completed: number } }>('status', {});
    expect(status).toMatchObject({ lead: { running: true }, tasks: { completed: 1 } });
    expect(await s.json('task_get', { id: 't1' })).toMatchObject({ status: 'completed', result: { summary: expect.stringContaining('out/t1.txt') } });
  });

  it('a task held for review is listed by approvals; answer rejects it with a reason, then accepts it into the merge', async () => {
    const config = { teammates: [{ name: 'ann' }], worktrees: { mode: 'per-task' }, permissions: { defaultMode: 'bypassPermissions' }, review: 'human' };
    const repo = team.repo(makeTeamRepo({ script: genericTaskScript(), config }));
    const { lead, events } = await startLead(repo);
    team.lead(lead);
    await using s = await connectStdio(repo.dir);
    await s.json('task_create', { subject: 'write t1', id: 't1' });
    const reviews = () => events.filter((e) => e.type === 'review_requested').length;
    await until(lead, () => reviews() === 1, 60_000, 'the review request');
    expect(await s.json('approvals', {})).toMatchObject({ requests: [], reviews: [{ id: 't1', by: 'ann', reviewer: 'human' }] });
    expect(await s.call('answer', { id: 't1', approve: false })).toMatchObject({ isError: true, text: expect.stringMatching(/^reason: /) });
    expect(await s.json('answer', { id: 't1', approve: false, reason: 'name the file better' })).toMatchObject({ review: 'rejected', owner: 'ann' });
    await until(lead, () => reviews() === 2, 60_000, 'the second review request');
    expect(await s.json('answer', { id: 't1', approve: true })).toMatchObject({ review: 'accepted' });
    await until(lead, () => lead.tasks.get('t1')?.status === 'completed', 60_000, 'the merge');
    expect(lead.tasks.get('t1')!.notes.some((n) => n.text.includes('name the file better'))).toBe(true);
  }, 150_000);
});
