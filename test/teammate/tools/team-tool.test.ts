import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { teamFactsOf } from '../../../src/cli/token-facts.js';
import { TeamConfigSchema } from '../../../src/config/schema.js';
import { TEAM_TOOL, runTeam } from '../../../src/teammate/tools/team-tool.js';
import { toolDefinition } from '../../../src/tools/index.js';
import { useTeamFixture } from './team-fixture.js';

const f = useTeamFixture();

const team = async (input: Record<string, unknown>, tool = TEAM_TOOL.plan) => tool.run(tool.inputSchema.parse(input), f.ctx);
const refusal = (input: Record<string, unknown>, tool = TEAM_TOOL.teammate): string => {
  const parsed = tool.inputSchema.safeParse(input);
  return parsed.success ? '' : JSON.stringify(parsed.error.issues);
};

describe('the team tool', () => {
  it('is sent as four untyped fields and five verbs; plan mode adds how to ask for approval', () => {
    const sent = toolDefinition(TEAM_TOOL.teammate);
    expect(sent.input_schema).toEqual({ type: 'object', properties: { do: {}, id: {}, to: {}, text: {} } });
    expect(sent.description).toBe('do: list, get, new, fail, send');
    expect(toolDefinition(TEAM_TOOL.plan).description).toContain('do plan');
  });

  it('a teammate spends at most 50 tokens a request on the team: the tool and its team line (the ledger’s count)', () => {
    const config = TeamConfigSchema.parse({ teammates: [{ name: 'w1' }, { name: 'w2' }, { name: 'w3' }], worktrees: { mode: 'off' } });
    const facts = teamFactsOf(config);
    expect(facts.toolTokens('team')).toBeLessThanOrEqual(40);
    expect(facts.toolTokens('team') + facts.teamPromptTokens('w1')).toBeLessThanOrEqual(50);
  });

  it('lists, shows, creates, fails and cancels on the board', async () => {
    expect((await team({ do: 'new', text: 'do a', description: 'details' })).content).toMatch(/^Created task \S+: do a$/);
    const [a] = f.tasks.list();
    await team({ do: 'new', text: 'do b', blockedBy: [a!.id] });
    expect((await team({ do: 'list' })).content).toContain(`${a!.id} [pending] do a`);
    expect(JSON.parse((await team({ do: 'get', id: a!.id })).content)).toMatchObject({ subject: 'do a', description: 'details' });
    expect((await team({ do: 'fail', id: a!.id, text: 'cannot' })).content).toContain('is now failed');
    expect(f.tasks.get(a!.id)).toMatchObject({ status: 'failed', result: { error: 'cannot' } });
    const b = f.tasks.list().find((t) => t.subject === 'do b')!;
    expect((await team({ do: 'cancel', id: b.id })).content).toContain('is now cancelled');
    expect((await team({ do: 'list', status: 'failed' })).content).not.toContain('do b');
  });

  it('mails, answers a shutdown request and asks for plan approval', async () => {
    expect((await team({ do: 'send', to: 'bob', text: 'hi' })).content).toBe('Sent to bob');
    expect((await f.mailbox.peek('bob')).map((m) => m.content)).toEqual(['hi']);
    expect((await team({ do: 'shutdown', id: 'r1', approve: false, text: 'busy' })).content).toBe('answered r1');
    expect((await team({ do: 'plan', text: 'a good plan' })).content).toContain('Plan approved');
    expect(f.answered).toEqual([{ requestId: 'r1', approve: false, reason: 'busy' }, { plan: 'a good plan' }]);
  });

  it('what a verb lacks is refused as data, naming the field; nothing is written', async () => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ do: 'get' }, /get needs id/],
      [{ do: 'new' }, /new needs text/],
      [{ do: 'fail', text: 'why' }, /fail needs id/],
      [{ do: 'send', text: 'hi' }, /send needs to: ann, bob, lead, user or \*/],
      [{ do: 'send', to: 'bob' }, /send needs text/],
      [{ do: 'send', to: 'nobody', text: 'hi' }, /Unknown recipient "nobody"/],
      [{ do: 'shutdown', id: 'r1' }, /approve/],
      [{ do: 'plan' }, /plan needs text/],
    ];
    for (const [input, message] of cases) expect(await team(input)).toMatchObject({ isError: true, content: expect.stringMatching(message) });
    expect(f.tasks.list()).toEqual([]);
    expect(await f.mailbox.peek('bob')).toEqual([]);
    expect(f.answered).toEqual([]);
    expect((await team({ do: 'done' })).content).toContain('completes with your final answer');
  });

  it('zod checks every input and names the field: the verb, a type, an unknown field; plan only in plan mode', () => {
    expect(refusal({ do: 'finish' })).toMatch(/"do".*list/s);
    expect(refusal({ do: 'plan', text: 'p' })).toMatch(/"do"/);
    expect(refusal({ do: 'plan', text: 'p' }, TEAM_TOOL.plan)).toBe('');
    expect(refusal({ do: 'send', to: ['bob'], text: 'hi' })).toMatch(/"to"/);
    expect(refusal({ do: 'new', text: 7 })).toMatch(/"text"/);
    expect(refusal({ do: 'list', colour: 'red' })).toMatch(/colour/);
    expect(refusal({ do: 'list', status: 'done' })).toMatch(/status/);
  });

  it('any input of its schema runs to a result or a refusal, never a throw (generated)', async () => {
    const field = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });
    const name = fc.constantFrom('ann', 'bob', 'nobody', '*', '../x', '');
    const input = fc.record({
      do: fc.constantFrom('list', 'get', 'new', 'fail', 'cancel', 'send', 'shutdown', 'done', 'plan' as const),
      id: field(fc.oneof(fc.constantFrom('t1', '../../x', ''), fc.string())),
      to: field(name),
      text: field(fc.string()),
      approve: field(fc.boolean()),
    });
    await fc.assert(
      fc.asyncProperty(input, async (i) => {
        const out = await runTeam(i, f.ctx);
        expect(typeof out.content).toBe('string');
        expect(out.content.length).toBeGreaterThan(0);
      }),
      { numRuns: 150 },
    );
  });
});
