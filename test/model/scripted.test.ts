import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ScriptedModel, scriptJsonSchema, type ConversationMessage } from '../../src/model/index.js';
import { collect, requestOf, textOf, tools } from './support.js';

const toolUse = (done: Awaited<ReturnType<typeof collect>>['done']) =>
  done.message.content.filter((b) => b.type === 'tool_use');

describe('ScriptedModel rules', () => {
  it('answers concurrent callers by their own agent and regex, with captures substituted', async () => {
    const model = new ScriptedModel({
      rules: [
        {
          agent: '/^worker-\\d+$/',
          match: 'Task (?<task>[a-z0-9-]+): (\\w+)',
          times: 'always',
          delayMs: 5,
          content: [
            { type: 'text', text: 'On it: $2 for ${task}.' },
            {
              type: 'tool_use',
              name: 'write_file',
              input: { path: 'out/${task}.txt', note: ['$1', 'cost $$5'] },
            },
          ],
        },
        { agent: 'lead', times: 'always', content: [{ type: 'text', text: 'I am the lead.' }] },
      ],
    });
    const calls = Array.from({ length: 8 }, (_, i) =>
      collect(model, requestOf(`Task t-${i}: verb${i}`, { agent: i === 7 ? 'lead' : `worker-${i}` })),
    );
    const results = await Promise.all(calls);
    for (const [i, { done }] of results.entries()) {
      if (i === 7) {
        expect(done.message.content).toEqual([{ type: 'text', text: 'I am the lead.' }]);
        continue;
      }
      expect(done.message.content[0]).toEqual({ type: 'text', text: `On it: verb${i} for t-${i}.` });
      expect(toolUse(done)[0]!.input).toEqual({ path: `out/t-${i}.txt`, note: [`t-${i}`, 'cost $5'] });
    }
    expect(model.report().complete).toBe(true);
  });

  it('matches the first user message, the turn, and the tool whose result came back', async () => {
    const model = new ScriptedModel({
      rules: [
        {
          conversation: 'build (\\S+)',
          turn: 0,
          content: [{ type: 'tool_use', name: 'bash', input: { command: 'make $1' } }],
        },
        {
          conversation: 'build (\\S+)',
          afterTool: 'bash',
          match: 'exit (\\d+)',
          content: [{ type: 'text', text: '$1 built, status $1' }],
        },
      ],
    });
    const first = await collect(model, requestOf('please build parser.c', { tools }));
    const call = toolUse(first.done)[0]!;
    expect(call.input).toEqual({ command: 'make parser.c' });
    const messages: ConversationMessage[] = [
      { role: 'user', content: 'please build parser.c' },
      first.done.message,
      {
        role: 'user',
        content: [{ type: 'tool_result', tool_use_id: call.id, content: [{ type: 'text', text: 'exit 0' }] }],
      },
    ];
    const second = await collect(model, requestOf('', { messages, tools }));
    // `$1` comes from `match` when the rule has one
    expect(second.done.message.content).toEqual([{ type: 'text', text: '0 built, status 0' }]);
    model.assertComplete();
  });

  it('uses a rule up to `times`, then falls through to the steps', async () => {
    const model = new ScriptedModel({
      rules: [{ match: 'ping', times: 2, content: [{ type: 'text', text: 'pong' }] }],
      steps: [{ content: [{ type: 'text', text: 'step answer' }] }],
    });
    const texts = [];
    for (let i = 0; i < 3; i++) texts.push(textOf((await collect(model, requestOf('ping'))).events));
    expect(texts).toEqual(['pong', 'pong', 'step answer']);
  });
});

describe('ScriptedModel steps', () => {
  it('uses steps in order, skipping (not using) steps meant for another agent', async () => {
    const model = new ScriptedModel({
      steps: [
        { agent: 'alice', content: [{ type: 'text', text: 'alice 1' }] },
        { content: [{ type: 'text', text: 'anyone 1' }] },
        { agent: 'alice', content: [{ type: 'text', text: 'alice 2' }] },
      ],
    });
    const say = async (agent: string) => textOf((await collect(model, requestOf('go', { agent }))).events);
    expect(await say('bob')).toBe('anyone 1');
    expect(await say('alice')).toBe('alice 1');
    expect(await say('alice')).toBe('alice 2');
    model.assertComplete();
  });

  it('streams text in several deltas and tool calls as events, with generated ids and the right stop reason', async () => {
    const model = new ScriptedModel({
      steps: [
        {
          content: [
            { type: 'text', text: 'Some longer text here' },
            { type: 'tool_use', name: 'bash', input: {} },
          ],
        },
      ],
    });
    const { events, done } = await collect(model, requestOf('go'));
    expect(events.filter((e) => e.type === 'text_delta').length).toBeGreaterThan(1);
    expect(events.map((e) => e.type).slice(-3)).toEqual(['tool_use', 'usage', 'done']);
    expect(toolUse(done)[0]!.id).toMatch(/^toolu_[0-9a-f]{24}$/);
    expect(done.stopReason).toBe('tool_use');
    // the first call writes its whole prompt to the simulated cache, up to the last breakpoint
    expect(done.usage.cache_creation_input_tokens).toBeGreaterThan(0);
  });

  it('reports cache figures: a later call reads the earlier prompt from the cache; promptCache off gives plain input', async () => {
    const script = { rules: [{ times: 'always' as const, content: [{ type: 'text' as const, text: 'ok' }] }] };
    const cached = new ScriptedModel(script);
    const first = (await collect(cached, requestOf('go'))).done.usage;
    const messages = [
      { role: 'user' as const, content: 'go' },
      { role: 'assistant' as const, content: 'ok' },
      { role: 'user' as const, content: 'again' },
    ];
    const second = (await collect(cached, requestOf('', { messages }))).done.usage;
    expect(second.cache_read_input_tokens).toBe(first.cache_creation_input_tokens);
    expect(second.cache_creation_input_tokens).toBeGreaterThan(0);
    const plain = (await collect(new ScriptedModel(script, { promptCache: false }), requestOf('go'))).done.usage;
    expect(plain).toMatchObject({ cache_read_input_tokens: 0, cache_creation_input_tokens: 0 });
    expect(plain.input_tokens).toBeGreaterThan(0);
  });
});

describe('ScriptedModel strictness', () => {
  it('ends an unexpected call with an invalid_request error naming the agent and the text, and records it', async () => {
    const model = new ScriptedModel({
      steps: [{ agent: 'alice', content: [{ type: 'text', text: 'hi alice' }] }],
    });
    const { done } = await collect(model, requestOf('what is the plan for task-42?', { agent: 'bob' }));
    expect(done).toMatchObject({ stopReason: 'error', error: { kind: 'invalid_request', retryable: false } });
    expect(done.error!.message).toContain('agent "bob"');
    expect(done.error!.message).toContain('what is the plan for task-42?');
    const report = model.report();
    expect(report.unmatched).toEqual([{ agent: 'bob', text: 'what is the plan for task-42?' }]);
    expect(report.unusedSteps).toEqual([{ label: 'steps[0]', used: 0, times: 1 }]);
  });

  it('assertComplete lists unused steps and rules whose times were not used up, but not "always" rules', async () => {
    const model = new ScriptedModel({
      rules: [
        { name: 'twice', match: 'x', times: 2, content: [{ type: 'text', text: 'x' }] },
        { match: 'never', times: 'always', content: [{ type: 'text', text: 'never' }] },
      ],
      steps: [{ content: [{ type: 'text', text: 'a' }] }, { content: [{ type: 'text', text: 'b' }] }],
    });
    await collect(model, requestOf('x'));
    await collect(model, requestOf('y'));
    expect(() => model.assertComplete()).toThrow(
      /unused: steps\[1\] \(used 0 of 1\)[\s\S]*unused: rules\[0\] "twice" \(used 1 of 2\)/,
    );
    expect(model.report().unusedRules.map((r) => r.label)).toEqual(['rules[0] "twice"']);
  });

  it('injects an error', async () => {
    const model = new ScriptedModel({ steps: [{ error: { kind: 'overloaded', status: 529 } }] });
    const { done } = await collect(model, requestOf('go'));
    expect(done).toMatchObject({
      stopReason: 'error',
      error: { kind: 'overloaded', retryable: true, status: 529 },
    });
  });

  it('waits delayMs, and an abort during the wait ends the call aborted', async () => {
    const model = new ScriptedModel({
      steps: [{ delayMs: 60_000, content: [{ type: 'text', text: 'late' }] }],
    });
    const controller = new AbortController();
    const pending = collect(model, requestOf('go', { signal: controller.signal }));
    controller.abort();
    const { done, events } = await pending;
    expect(done.stopReason).toBe('aborted');
    expect(events.some((e) => e.type === 'text_delta')).toBe(false);
  });
});

describe('ScriptedModel abort', () => {
  it('stops mid-answer keeping only finished blocks, and an already-aborted call uses up nothing', async () => {
    const model = new ScriptedModel({
      steps: [
        {
          content: [
            { type: 'text', text: 'first block' },
            { type: 'text', text: 'second block, long enough' },
          ],
        },
      ],
    });
    const early = new AbortController();
    early.abort();
    expect((await collect(model, requestOf('go', { signal: early.signal }))).done.stopReason).toBe('aborted');
    expect(model.report().unusedSteps).toHaveLength(1);

    const controller = new AbortController();
    let done: unknown;
    for await (const event of model.stream(requestOf('go', { signal: controller.signal }))) {
      if (event.type === 'text_delta' && event.index === 1) controller.abort();
      if (event.type === 'done') done = { stopReason: event.stopReason, content: event.message.content };
    }
    expect(done).toEqual({ stopReason: 'aborted', content: [{ type: 'text', text: 'first block' }] });
  });
});

describe('script files', () => {
  let dir: string | undefined;
  afterEach(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('loads a file, and rejects a bad one naming the file and the field', async () => {
    dir = await mkdtemp(join(tmpdir(), 'teamd-script-'));
    const good = join(dir, 'good.json');
    await writeFile(good, JSON.stringify({ steps: [{ content: [{ type: 'text', text: 'from file' }] }] }));
    const model = await ScriptedModel.fromFile(good);
    expect(model.model).toBe(`scripted:${good}`);
    expect(textOf((await collect(model, requestOf('go'))).events)).toBe('from file');

    const bad = join(dir, 'bad.json');
    await writeFile(
      bad,
      JSON.stringify({ rules: [{ match: '(unclosed', content: [{ type: 'text', text: 'x' }] }] }),
    );
    await expect(ScriptedModel.fromFile(bad)).rejects.toThrow(
      `${bad}: invalid script: rules.0.match: not a valid regular expression`,
    );
    const typo = join(dir, 'typo.json');
    await writeFile(typo, JSON.stringify({ steps: [{ contnet: [] }] }));
    await expect(ScriptedModel.fromFile(typo)).rejects.toThrow(
      /typo\.json: invalid script: steps\.0.*contnet/,
    );
  });

  it('exports the format as JSON Schema', () => {
    const schema = scriptJsonSchema();
    expect(schema).toMatchObject({
      type: 'object',
      properties: { steps: { type: 'array' }, rules: { type: 'array' } },
    });
    expect(JSON.stringify(schema)).toContain('"always"');
  });
});
