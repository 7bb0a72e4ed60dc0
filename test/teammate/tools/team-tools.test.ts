import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { teamTools, TEAM_TOOL_NAMES } from '../../../src/teammate/tools/index.js';
import { taskIntent } from '../../../src/teammate/tools/task-write.js';
import { FINISHED_BODY_NOTE } from '../../../src/teammate/tools/task-list.js';
import { createToolContext } from '../../../src/tools/context.js';
import { toolDefinition } from '../../../src/tools/index.js';
import { estimateToolTokens } from '../../../src/model/usage.js';
import { wireTool } from '../../../src/model/wire-tools.js';
import type { AnyTool } from '../../../src/tools/types.js';
import { TaskStore } from '../../../src/store/tasks/index.js';
import { useTeamFixture } from './team-fixture.js';

const f = useTeamFixture();

const tool = (name: string, sender: 'lead' | 'teammate' | 'plan' = 'plan'): AnyTool =>
  teamTools(sender).find((t) => t.name === name)!;
const call = async (name: string, input: Record<string, unknown>, sender?: 'lead' | 'teammate' | 'plan') => {
  const t = tool(name, sender);
  return t.run(t.inputSchema.parse(input), f.ctx);
};

describe('the team tools a model is offered', () => {
  it('the lead is offered three, a teammate one (team); the rest are callable but unlisted', () => {
    const offered = (sender: 'lead' | 'teammate' | 'plan') => teamTools(sender).filter((t) => !t.unlisted).map((t) => t.name);
    expect(offered('lead')).toEqual(['task_list', 'task_write', 'send_message']);
    expect(offered('teammate')).toEqual(['team']);
    expect(offered('plan')).toEqual(['team']);
    expect(teamTools('lead').filter((t) => t.unlisted).map((t) => t.name)).toEqual(['task_get', 'task_create', 'task_update']);
    expect(teamTools('teammate').filter((t) => t.unlisted).map((t) => t.name)).toEqual(
      expect.arrayContaining(['task_list', 'task_write', 'send_message', 'shutdown_response']),
    );
    expect(TEAM_TOOL_NAMES).toEqual(expect.arrayContaining(['team', 'shutdown_response', 'request_plan_approval', 'task_write']));
  });

  it('send_message offers the protocol answers only where they apply', () => {
    const schema = (sender: 'lead' | 'teammate' | 'plan') => JSON.stringify(toolDefinition(tool('send_message', sender)));
    const accepts = (sender: 'lead' | 'teammate' | 'plan', type: string) =>
      tool('send_message', sender).inputSchema.safeParse({ type, request_id: 'r', approve: true }).success;
    expect(schema('lead')).not.toContain('request_id');
    expect(accepts('lead', 'shutdown_response')).toBe(false);
    expect(schema('teammate')).toContain('request_id');
    expect(accepts('teammate', 'shutdown_response')).toBe(true);
    expect(accepts('teammate', 'plan_approval_request')).toBe(false);
    expect(schema('teammate')).not.toContain('plan_approval_request');
    expect(schema('plan')).toContain('plan_approval_request');
    expect(accepts('plan', 'plan_approval_request')).toBe(true);
  });

  it('a teammate is sent at most 40 tokens of team tool schema, the lead at most 180, with no enums or string types', () => {
    const sent = (sender: 'lead' | 'teammate') => teamTools(sender).filter((t) => !t.unlisted).map((t) => wireTool(toolDefinition(t)));
    expect(estimateToolTokens(sent('teammate'))).toBeLessThanOrEqual(40);
    expect(estimateToolTokens(sent('lead'))).toBeLessThanOrEqual(180);
    expect(JSON.stringify([...sent('teammate'), ...sent('lead')])).not.toMatch(/"enum"|"type":"string"/);
  });

  it('a teammate is not offered owner and priority, but its task_write takes them; the lead is offered them', () => {
    const fields = (sender: 'lead' | 'teammate') => Object.keys(toolDefinition(tool('task_write', sender)).input_schema.properties as object);
    expect(fields('teammate')).toEqual(['id', 'subject', 'description', 'blockedBy', 'status', 'reason']);
    expect(fields('lead')).toEqual(expect.arrayContaining(['owner', 'priority']));
    expect(tool('task_write', 'teammate').inputSchema.safeParse({ subject: 's', owner: 'bob', priority: 1 }).success).toBe(true);
  });

  it('a field sent without its type or values is still checked, with a message naming it', () => {
    const refusal = (name: string, input: Record<string, unknown>) => {
      const parsed = tool(name, 'teammate').inputSchema.safeParse(input);
      return parsed.success ? '' : JSON.stringify(parsed.error.issues);
    };
    expect(refusal('task_list', { status: 'done' })).toMatch(/status.*in_progress|in_progress.*status/s);
    expect(refusal('task_write', { id: 'a', status: 'finished' })).toMatch(/status/);
    expect(refusal('task_write', { subject: 7 })).toMatch(/subject/);
    expect(refusal('send_message', { to: ['ann'], content: 'hi' })).toMatch(/"to"/);
  });
});

describe('task_write and task_list', () => {
  it('creates with a subject, changes by id, and task_list with an id shows the task in full', async () => {
    expect((await call('task_write', { id: 'a', subject: 'do a' })).content).toBe('Created task a: do a');
    await call('task_write', { id: 'b', subject: 'do b', blockedBy: ['a'] });
    const changed = await call('task_write', { id: 'b', status: 'cancelled', reason: 'not needed' });
    expect(changed.content).toContain('Task b is now cancelled');
    const shown = JSON.parse((await call('task_list', { id: 'b' })).content) as { notes: { text: string }[] };
    expect(shown.notes.map((n) => n.text)).toEqual(['not needed']);
    expect((await call('task_list', {})).content).toContain('a [pending] do a');
    expect(await call('task_list', { id: 'nope' })).toMatchObject({ isError: true, content: expect.stringContaining('Known ids: a, b') });
  });

  it("on a teammate's board copy a finished task is shown without its body, and says where it is", async () => {
    await call('task_write', { id: 'a', subject: 'do a', description: 'the long brief' });
    await call('task_write', { id: 'b', subject: 'do b', description: 'another brief' });
    await call('task_write', { id: 'b', status: 'cancelled', reason: 'not needed' });
    f.tasks = TaskStore.fromSnapshot(f.dir, f.tasks.snapshot(), { finishedBodies: false });
    const team = { tasks: f.tasks, mailbox: f.mailbox, roster: () => ['ann'], self: 'ann' };
    f.ctx = createToolContext({ root: f.dir, services: { team, protocol: f.protocol } });
    const done = JSON.parse((await call('task_list', { id: 'b' })).content) as Record<string, unknown>;
    expect(done).toMatchObject({ status: 'cancelled', description: '', notes: [], bodyNotKept: FINISHED_BODY_NOTE });
    const live = JSON.parse((await call('task_list', { id: 'a' })).content) as Record<string, unknown>;
    expect(live).toMatchObject({ description: 'the long brief' });
    expect(live).not.toHaveProperty('bodyNotKept');
  });

  it('refuses what is neither a create nor a change, and writes nothing', async () => {
    for (const input of [{}, { subject: 's', status: 'cancelled' }, { id: 'x', priority: 1 }]) {
      expect(await call('task_write', input)).toMatchObject({ isError: true });
    }
    expect(f.tasks.list()).toEqual([]);
  });

  it('a dependency cycle through blockedBy is refused', async () => {
    await call('task_write', { id: 'a', subject: 'a' });
    await call('task_write', { id: 'b', subject: 'b', blockedBy: ['a'] });
    expect(await call('task_write', { id: 'a', blockedBy: ['b'] })).toMatchObject({ isError: true, content: expect.stringContaining('cycle') });
  });

  it('taskIntent: any input is exactly one of create, change or a refusal (generated)', () => {
    const field = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });
    const input = fc.record({
      id: field(fc.string()),
      subject: field(fc.string({ minLength: 1 })),
      description: field(fc.string()),
      priority: field(fc.integer()),
      status: field(fc.constantFrom('cancelled' as const, 'failed' as const, 'pending' as const)),
      reason: field(fc.string()),
    });
    fc.assert(
      fc.property(input, (i) => {
        const intent = taskIntent(i);
        if (intent === 'create') return i.subject !== undefined && i.status === undefined && i.reason === undefined;
        if (intent === 'change') return i.subject === undefined && i.id !== undefined;
        return intent.length > 20;
      }),
      { numRuns: 500 },
    );
  });

  it('the old names still work: task_create, task_update, task_get', async () => {
    await call('task_create', { id: 'a', subject: 'old a' });
    await call('task_update', { id: 'a', status: 'cancelled' });
    expect(JSON.parse((await call('task_get', { id: 'a' })).content)).toMatchObject({ id: 'a', status: 'cancelled' });
  });
});

describe('send_message', () => {
  it('mails a teammate; no recipient or no content is refused as data', async () => {
    expect((await call('send_message', { to: 'bob', content: 'hi' })).content).toBe('Sent to bob');
    expect((await f.mailbox.peek('bob')).map((m) => m.content)).toEqual(['hi']);
    expect(await call('send_message', { content: 'hi' })).toMatchObject({ isError: true, content: expect.stringContaining('recipient') });
    expect(await call('send_message', { to: 'bob' })).toMatchObject({ isError: true });
  });

  it('carries the shutdown answer and the plan request, as the old tools did', async () => {
    const shut = await call('send_message', { type: 'shutdown_response', request_id: 'r1', approve: true, content: 'done' });
    expect(shut.content).toBe('answered r1');
    expect(await call('send_message', { type: 'shutdown_response', request_id: 'r1' })).toMatchObject({ isError: true });
    expect((await call('send_message', { type: 'plan_approval_request', content: 'a good plan' })).content).toContain('Plan approved');
    expect((await call('request_plan_approval', { plan: 'a bad plan' })).content).toContain('Plan not approved');
    expect((await call('shutdown_response', { request_id: 'r2', approve: false })).content).toBe('answered r2');
    expect(f.answered).toEqual([
      { requestId: 'r1', approve: true, reason: 'done' },
      { plan: 'a good plan' },
      { plan: 'a bad plan' },
      { requestId: 'r2', approve: false, reason: '' },
    ]);
  });

  it('outside a teammate (the lead) a protocol answer is refused, not thrown', async () => {
    const leadCtx = createToolContext({ root: f.dir, services: { team: { tasks: f.tasks, mailbox: f.mailbox, roster: () => ['ann'], self: 'lead' } } });
    const t = tool('send_message', 'plan');
    const out = await t.run(t.inputSchema.parse({ type: 'plan_approval_request', content: 'p' }), leadCtx);
    expect(out).toMatchObject({ isError: true, content: expect.stringContaining('Only a teammate') });
  });
});
