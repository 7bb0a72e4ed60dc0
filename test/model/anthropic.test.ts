import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  AnthropicModel,
  costOf,
  startFakeAnthropicServer,
  type ConversationMessage,
  type FakeAnthropicServer,
  type ScriptInput,
} from '../../src/model/index.js';
import { FAST_BACKOFF, collect, requestOf, textOf, tools } from './support.js';

let server: FakeAnthropicServer;

async function serve(script: ScriptInput): Promise<AnthropicModel> {
  server = await startFakeAnthropicServer({ script });
  return new AnthropicModel({
    model: 'claude-sonnet-5-5',
    apiKey: 'test-key',
    baseURL: server.url,
    backoff: FAST_BACKOFF,
  });
}

afterEach(async () => {
  await server?.close();
});

describe('AnthropicModel streaming against the fake Messages API', () => {
  it('streams text deltas and ends with the whole message', async () => {
    const model = await serve({
      steps: [{ content: [{ type: 'text', text: 'Hello from the fake server.' }] }],
    });
    const { events, done } = await collect(model, requestOf('hi'));
    const deltas = events.filter((e) => e.type === 'text_delta');
    expect(deltas.length).toBeGreaterThan(1);
    expect(textOf(events)).toBe('Hello from the fake server.');
    expect(done.stopReason).toBe('end_turn');
    expect(done.model).toBe('claude-sonnet-5-5');
    expect(done.message).toEqual({
      role: 'assistant',
      content: [{ type: 'text', text: 'Hello from the fake server.' }],
    });
    expect(events.at(-2)).toEqual({ type: 'usage', usage: done.usage });
  });

  it('assembles tool_use input from several input_json_delta chunks and emits each block as it completes', async () => {
    const input = { path: 'src/deeply/nested/file.ts', content: 'export const answer = 42;\n'.repeat(5) };
    const model = await serve({
      steps: [
        {
          content: [
            { type: 'text', text: 'Writing it.' },
            { type: 'tool_use', id: 'toolu_a', name: 'write_file', input },
            {
              type: 'tool_use',
              id: 'toolu_b',
              name: 'bash',
              input: { command: 'cat src/deeply/nested/file.ts' },
            },
          ],
        },
      ],
    });
    const { events, done } = await collect(model, requestOf('write the file', { tools }));
    const toolEvents = events.filter((e) => e.type === 'tool_use');
    expect(toolEvents.map((e) => [e.index, e.block.id])).toEqual([
      [1, 'toolu_a'],
      [2, 'toolu_b'],
    ]);
    expect(toolEvents[0]!.block.input).toEqual(input);
    // each block opens (content_block_start) before its deltas, a tool call with its id and name
    const starts = events.flatMap((e) => (e.type === 'block_start' ? [[e.index, e.block.type]] : []));
    expect(starts).toEqual([[0, 'text'], [1, 'tool_use'], [2, 'tool_use']]);
    const firstInput = events.findIndex((e) => e.type === 'input_json_delta' && e.index === 1);
    expect(events.findIndex((e) => e.type === 'block_start' && e.index === 1)).toBeLessThan(firstInput);
    expect(events.find((e) => e.type === 'block_start' && e.index === 2)).toMatchObject({ block: { id: 'toolu_b', name: 'bash' } });
    // the first tool is announced before the second one's events arrive
    expect(events.indexOf(toolEvents[0]!)).toBeLessThan(events.indexOf(toolEvents[1]!));
    expect(done.stopReason).toBe('tool_use');
    expect(done.message.content).toHaveLength(3);
  });

  it('places cache_control on the system prompt, the last tool and the last block of the last message, without touching the caller', async () => {
    const model = await serve({ rules: [{ times: 'always', content: [{ type: 'text', text: 'ok' }] }] });
    const messages: ConversationMessage[] = [
      { role: 'user', content: 'first question' },
      { role: 'assistant', content: [{ type: 'text', text: 'first answer' }] },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'part one' },
          { type: 'text', text: 'part two' },
        ],
      },
    ];
    const before = structuredClone(messages);
    await collect(model, requestOf('', { messages, tools, agent: 'worker-1' }));
    expect(messages).toEqual(before);
    const { body, headers } = server.requests[0]!;
    expect(headers['x-teamd-agent']).toBe('worker-1');
    expect(body!.system).toEqual([
      { type: 'text', text: 'You are a test.', cache_control: { type: 'ephemeral' } },
    ]);
    expect(body!.tools!.map((t) => t.cache_control)).toEqual([undefined, { type: 'ephemeral' }]);
    const wire = body!.messages;
    expect(wire[0]!.content).toBe('first question');
    expect(wire[2]!.content).toEqual([
      { type: 'text', text: 'part one' },
      { type: 'text', text: 'part two', cache_control: { type: 'ephemeral' } },
    ]);
  });

  it('reports usage per call with cache reads on the second turn, and the ledger sums usage and cost', async () => {
    const model = await serve({ rules: [{ times: 'always', content: [{ type: 'text', text: 'noted' }] }] });
    const system = 'A long system prompt. '.repeat(200);
    const first = await collect(model, requestOf('turn one', { system, tools }));
    const history: ConversationMessage[] = [
      { role: 'user', content: 'turn one' },
      first.done.message,
      { role: 'user', content: 'turn two' },
    ];
    const second = await collect(model, requestOf('', { system, tools, messages: history }));
    expect(first.done.usage.cache_read_input_tokens).toBe(0);
    expect(first.done.usage.cache_creation_input_tokens).toBeGreaterThan(1000);
    expect(second.done.usage.cache_read_input_tokens).toBeGreaterThanOrEqual(
      first.done.usage.cache_creation_input_tokens,
    );
    const snap = model.ledger.snapshot();
    const total = snap.usage['claude-sonnet-5-5']!;
    expect(total.output_tokens).toBe(first.done.usage.output_tokens + second.done.usage.output_tokens);
    expect(total.cache_read_input_tokens).toBe(second.done.usage.cache_read_input_tokens);
    const expected =
      costOf('claude-sonnet-5-5', first.done.usage) + costOf('claude-sonnet-5-5', second.done.usage);
    expect(snap.totalCostUsd).toBeCloseTo(expected, 12);
    expect(snap.totalCostUsd).toBeGreaterThan(0);
  });

  it('ends with stopReason aborted when the caller aborts mid-stream, keeping only finished blocks', async () => {
    const model = await serve({
      steps: [
        {
          content: [
            { type: 'text', text: 'A sentence that will be cut.' },
            { type: 'tool_use', name: 'bash', input: { command: 'ls' } },
          ],
        },
      ],
    });
    server.inject({ kind: 'stall_stream' });
    const controller = new AbortController();
    const seen: string[] = [];
    let done: { stopReason: string; content: unknown[] } | undefined;
    for await (const event of model.stream(requestOf('go', { tools, signal: controller.signal }))) {
      seen.push(event.type);
      if (event.type === 'text_delta' && !controller.signal.aborted) controller.abort();
      if (event.type === 'done') done = { stopReason: event.stopReason, content: event.message.content };
    }
    expect(done?.stopReason).toBe('aborted');
    expect(done?.content).toEqual([{ type: 'text', text: 'A sentence that will be cut.' }]);
    expect(seen).not.toContain('tool_use');
    expect(server.requests).toHaveLength(1);
  });

  it('reads ANTHROPIC_API_KEY and ANTHROPIC_BASE_URL when not given', async () => {
    await serve({ steps: [{ content: [{ type: 'text', text: 'from env' }] }] });
    const saved = { key: process.env['ANTHROPIC_API_KEY'], url: process.env['ANTHROPIC_BASE_URL'] };
    process.env['ANTHROPIC_API_KEY'] = 'test-key';
    process.env['ANTHROPIC_BASE_URL'] = server.url;
    try {
      const model = new AnthropicModel({ model: 'claude-haiku-5-5' });
      const { done } = await collect(model, requestOf('hi'));
      expect(done.message.content).toEqual([{ type: 'text', text: 'from env' }]);
      expect(server.requests[0]!.headers.authorization).toBe('Bearer test-key');
    } finally {
      restoreEnv('ANTHROPIC_API_KEY', saved.key);
      restoreEnv('ANTHROPIC_BASE_URL', saved.url);
    }
  });
});

describe('AnthropicModel errors are data', () => {
  beforeEach(async () => {
    server = await startFakeAnthropicServer({
      script: { rules: [{ times: 'always', content: [{ type: 'text', text: 'ok' }] }] },
    });
  });
  const client = (apiKey = 'test-key'): AnthropicModel =>
    new AnthropicModel({ model: 'claude-sonnet-5-5', apiKey, baseURL: server.url, backoff: FAST_BACKOFF });

  it('classifies a wrong key as auth, not retried', async () => {
    const { done } = await collect(client('wrong-key'), requestOf('hi'));
    expect(done.stopReason).toBe('error');
    expect(done.error).toMatchObject({ kind: 'auth', retryable: false, status: 401 });
    expect(server.requests).toHaveLength(1);
  });

  it('classifies a 400 "prompt is too long" as prompt_too_long', async () => {
    server.inject({ kind: 'prompt_too_long' });
    const { done } = await collect(client(), requestOf('hi'));
    expect(done.error).toMatchObject({ kind: 'prompt_too_long', retryable: false, status: 400 });
    expect(done.error!.message).toMatch(/prompt is too long/);
  });

  it('gets a 400 invalid_request for an assistant tool_use with no tool_result after it', async () => {
    const messages: ConversationMessage[] = [
      { role: 'user', content: 'run it' },
      {
        role: 'assistant',
        content: [{ type: 'tool_use', id: 'toolu_orphan', name: 'bash', input: { command: 'ls' } }],
      },
      { role: 'user', content: 'never mind' },
    ];
    const { done } = await collect(client(), requestOf('', { messages, tools }));
    expect(done.error).toMatchObject({ kind: 'invalid_request', retryable: false, status: 400 });
    expect(done.error!.message).toMatch(/tool_use.*ids were found without .*tool_result.*toolu_orphan/);
    expect(server.requests[0]!.outcome).toBe('invalid');
  });
});

function restoreEnv(name: string, value: string | undefined): void {
  if (value === undefined) delete process.env[name];
  else process.env[name] = value;
}
