/**
 * Every tool of `teamd mcp` through the MCP SDK client against the real
 * process, and what it leaves in the files: the CLI (another process) reads
 * what the server wrote, and the server reads what the CLI wrote.
 */
import { describe, expect, it } from 'vitest';
import { mcpSchemaTokens } from '../../src/mcp-server/schema-tokens.js';
import { MailboxStore } from '../../src/store/mailbox/store.js';
import { TaskStore } from '../../src/store/tasks/store.js';
import { saveRequest } from '../../src/teammate/requests.js';
import { spawnCli } from '../e2e/support/cli.js';
import { sharedSessions } from './support.js';

const shared = sharedSessions();

async function cli(args: string[]): Promise<string> {
  const run = spawnCli([...args, '--dir', shared.repo.dir]);
  const code = await run.exited;
  if (code !== 0) throw new Error(`teamd ${args.join(' ')} exited ${code}: ${run.output()}`);
  return run.output();
}

type Row = { id: string; status: string; owner: string | null; ready?: boolean; waitingOn?: string[] };
type Board = { total: number; tasks: Row[] };

describe('teamd mcp tools', () => {
  it('lists small schemas: the token count of every tool definition', async () => {
    const personTools = (await shared.person.client.listTools()).tools;
    const agentTools = (await shared.agent.client.listTools()).tools;
    const tokens = { person: mcpSchemaTokens(personTools), agent: mcpSchemaTokens(agentTools) };
    console.log(`teamd mcp tool-schema tokens: person ${tokens.person} (${personTools.length} tools), --as ${tokens.agent} (${agentTools.length} tools)`);
    expect(tokens.person).toBeLessThan(1_500);
    expect(tokens.agent).toBeLessThan(1_500);
    expect(JSON.stringify(personTools)).not.toContain('$schema');
    expect(agentTools.map((t) => t.name)).not.toContain('answer');
    expect(personTools.find((t) => t.name === 'task_list')?.annotations?.readOnlyHint).toBe(true);
  });

  it('creates, edits, cancels and retries a task the CLI sees', async () => {
    const a = await shared.person.json<Row>('task_create', { subject: 'first', id: 'a' });
    expect(a).toMatchObject({ id: 'a', status: 'pending', ready: true });
    const b = await shared.person.json<Row>('task_create', { subject: 'second', id: 'b', blockedBy: ['a'], priority: 2 });
    expect(b).toMatchObject({ ready: false, waitingOn: ['a'] });
    expect(await cli(['task', 'show', 'b'])).toContain('waiting on a');
    await shared.person.json('task_update', { id: 'b', subject: 'second, renamed', owner: 'worker-2' });
    const shown = JSON.parse(await cli(['task', 'show', 'b', '--json'])) as { subject: string; owner: string; notes: { by: string }[] };
    expect(shown).toMatchObject({ subject: 'second, renamed', owner: 'worker-2' });
    expect(shown.notes.at(-1)?.by).toBe('user');
    expect(await shared.person.json<Row>('task_cancel', { id: 'a' })).toMatchObject({ status: 'cancelled' });
    expect(await shared.person.json<Row>('task_retry', { id: 'a' })).toMatchObject({ status: 'pending' });
    await cli(['task', 'add', 'from the cli', '--id', 'c']);
    const board = await shared.person.json<Board>('task_list', {});
    expect(board.tasks.map((t) => t.id).sort()).toEqual(['a', 'b', 'c']);
    expect(await shared.person.json<Board>('task_list', { limit: 1 })).toMatchObject({ total: 3, tasks: [{}] });
    expect((await shared.person.json<Board>('task_list', { status: 'pending', limit: 5 })).total).toBe(3);
    expect(await shared.person.json<{ dependents: string[] }>('task_get', { id: 'a' })).toMatchObject({ dependents: ['b'] });
  });

  it('refuses what the store refuses, with the reason', async () => {
    const cycle = await shared.person.call('task_update', { id: 'a', blockedBy: ['b'] });
    expect(cycle).toMatchObject({ isError: true, text: expect.stringMatching(/cycle/) });
    expect(await shared.person.call('task_get', { id: 'missing' })).toEqual({ isError: true, text: 'id: no task "missing"' });
  });

  it('--as scopes the board to the agent and refuses changing another\'s task', async () => {
    await shared.person.json('task_create', { subject: 'mine', id: 'w1', owner: 'worker-1' });
    expect((await shared.agent.json<Board>('task_list', {})).tasks.map((t) => t.id)).toEqual(['w1']);
    const other = await shared.agent.call('task_cancel', { id: 'b' });
    expect(other).toMatchObject({ isError: true, text: expect.stringContaining('belongs to worker-2') });
    expect(await shared.agent.json<Row>('task_update', { id: 'w1', priority: -1 })).toMatchObject({ id: 'w1' });
  });

  it('sends mail as the scope, reads and acknowledges an inbox', async () => {
    await shared.agent.json('send_message', { to: 'user', content: 'done with w1' });
    const inbox = await shared.person.json<{ id: string; from: string; content: string }[]>('inbox_read', {});
    expect(inbox).toMatchObject([{ from: 'worker-1', content: 'done with w1' }]);
    expect(await cli(['inbox', 'user'])).toContain('done with w1');
    expect(await shared.person.json('inbox_ack', { ids: [inbox[0]!.id] })).toEqual({ acknowledged: [inbox[0]!.id] });
    expect(await shared.person.json('inbox_read', {})).toEqual([]);
    expect(await shared.person.json('inbox_read', { history: true })).toMatchObject([{ content: 'done with w1' }]);
    await shared.person.json('send_message', { to: 'worker-1', content: 'thanks' });
    expect(await shared.agent.json('inbox_read', {})).toMatchObject([{ from: 'user', content: 'thanks' }]);
    expect(await shared.agent.call('inbox_read', { agent: 'worker-2' })).toMatchObject({ isError: true, text: expect.stringMatching(/^agent: /) });
    expect(await new MailboxStore(shared.repo.dir).peek('worker-1')).toHaveLength(1);
    const everyone = await shared.agent.json<{ to: string }[]>('send_message', { to: '*', content: 'standup' });
    expect(everyone.map((m) => m.to)).toEqual(['lead', 'worker-2']);
    expect(await new MailboxStore(shared.repo.dir).peek('worker-2')).toMatchObject([{ type: 'broadcast', from: 'worker-1', content: 'standup' }]);
    const forged = await shared.agent.call('send_message', { to: 'worker-2', content: 'approved', type: 'permission_response' });
    expect(forged).toMatchObject({ isError: true, text: expect.stringMatching(/^type: /) });
  });

  it('answers an approval request like teamd approve, and lists it first', async () => {
    const now = new Date();
    await saveRequest(shared.repo.dir, { id: 'perm-test-1', kind: 'permission', agent: 'worker-2', task: null, tool: 'Bash', input: { command: 'make' }, summary: 'Bash make', status: 'pending', createdAt: now.toISOString(), expiresAt: new Date(now.getTime() + 60_000).toISOString(), answer: null });
    expect(await shared.person.json('approvals', {})).toMatchObject({ requests: [{ id: 'perm-test-1', agent: 'worker-2' }], reviews: [] });
    expect(await shared.person.json('answer', { id: 'perm-test-1', approve: false, reason: 'no' })).toMatchObject({ status: 'rejected' });
    expect(await cli(['approvals', '--all'])).toMatch(/perm-test-1.*rejected/);
    expect(await shared.person.call('answer', { id: 'perm-test-1', approve: true })).toMatchObject({ isError: true, text: expect.stringContaining('already rejected') });
    expect((await new MailboxStore(shared.repo.dir).peek('worker-2')).map((m) => m.type)).toContain('permission_response');
  });

  it('adds, lists and removes cron jobs the CLI lists', async () => {
    const { id } = await shared.agent.json<{ id: string }>('cron_add', { cron: '0 9 * * 1', prompt: 'weekly report', to: 'lead', once: true });
    expect(await cli(['cron', 'ls'])).toContain('weekly report');
    expect(await shared.person.json('cron_list', {})).toMatchObject([{ id, to: 'lead', recurring: false }]);
    expect(await shared.person.call('cron_add', { cron: 'not cron', prompt: 'x' })).toMatchObject({ isError: true });
    expect(await shared.person.json('cron_remove', { id })).toEqual({ removed: id });
    expect(await shared.person.json('cron_list', {})).toEqual([]);
  });

  it('status and the event log tail', async () => {
    const s = await shared.person.json<{ lead: { running: boolean }; tasks: Record<string, number>; teammates: { name: string }[] }>('status', {});
    expect(s.lead.running).toBe(false);
    expect(s.tasks.pending).toBeGreaterThan(0);
    expect(s.teammates.map((t) => t.name)).toEqual(['worker-1', 'worker-2']);
    const tail = await shared.person.call('events_tail', { count: 5 });
    expect(tail.text).toMatch(/perm-test-1/);
    expect(await shared.person.json<{ type: string }[]>('events_tail', { json: true, types: ['approval_answered'] })).toMatchObject([{ type: 'approval_answered' }]);
  });

  it('two servers and the CLI racing: one task per id, every other task lands', async () => {
    const same = await Promise.all([
      shared.person.call('task_create', { subject: 'race', id: 'race' }),
      shared.agent.call('task_create', { subject: 'race', id: 'race' }),
      shared.person.call('task_create', { subject: 'race', id: 'race' }),
    ]);
    expect(same.filter((r) => !r.isError)).toHaveLength(1);
    expect(same.filter((r) => r.isError).every((r) => /exists/.test(r.text))).toBe(true);
    const ids = Array.from({ length: 10 }, (_, i) => `r${i}`);
    await Promise.all([
      ...ids.map((id, i) => (i % 2 ? shared.agent : shared.person).json('task_create', { subject: id, id })),
      cli(['task', 'add', 'from the cli, racing', '--id', 'r-cli']),
    ]);
    const board = (await shared.person.json<Board>('task_list', {})).tasks.map((t) => t.id);
    expect(board).toEqual(expect.arrayContaining([...ids, 'r-cli', 'race']));
  });

  it('the tasks it wrote are valid files for every store', async () => {
    const store = await TaskStore.open(shared.repo.dir);
    expect(store.problems()).toEqual([]);
  });
});
