import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import {
  AnthropicModel,
  ScriptedModel,
  startFakeAnthropicServer,
  type ContentBlock,
  type ConversationMessage,
  type FakeAnthropicServer,
  type ScriptInput,
  type ThinkingOptions,
} from '../../src/model/index.js';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createModelClient, loadScript } from '../../src/model/index.js';
import { messagesWithCache } from '../../src/model/cache-control.js';
import { thinkingKept } from '../../src/model/fake-server/thinking-check.js';
import { verifyThinking } from '../../src/model/scripted/thinking-signature.js';
import { FAST_BACKOFF, collect, requestOf, tools } from './support.js';

let server: FakeAnthropicServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const THINK_THEN_TOOL: ScriptInput = {
  steps: [
    {
      content: [
        { type: 'thinking', thinking: 'I should look at the files first.' },
        { type: 'redacted_thinking' },
        { type: 'tool_use', name: 'bash', input: { command: 'ls' } },
      ],
    },
    {
      afterTool: 'bash',
      content: [
        { type: 'thinking', thinking: 'Done.' },
        { type: 'text', text: 'All good.' },
      ],
    },
  ],
};

async function serve(script: ScriptInput, model = 'claude-sonnet-5-5', thinking?: ThinkingOptions) {
  server = await startFakeAnthropicServer({ script });
  return new AnthropicModel({
    model,
    apiKey: 'test-key',
    baseURL: server.url,
    backoff: FAST_BACKOFF,
    maxRetries: 0,
    thinking,
  });
}

const bodyOf = (n: number) => server!.requests[n]!.body!;

function followUp(
  first: ContentBlock[],
  change: (blocks: ContentBlock[]) => ContentBlock[],
): ConversationMessage[] {
  const use = first.find((b) => b.type === 'tool_use')!;
  return [
    { role: 'user', content: 'go' },
    { role: 'assistant', content: change(first) },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: use.id, content: 'a.txt' }] },
  ];
}

describe('extended thinking through the real SDK and the fake server', () => {
  it('streams thinking and redacted thinking with signatures, and sends the parameters the model supports', async () => {
    const model = await serve(THINK_THEN_TOOL, 'claude-sonnet-5-5', { thinking: 'adaptive', effort: 'high' });
    const { done } = await collect(model, requestOf('go', { tools, maxTokens: undefined }));
    const [thinking, redacted, use] = done.message.content;
    expect(thinking).toMatchObject({ type: 'thinking', thinking: 'I should look at the files first.' });
    expect(thinking?.type === 'thinking' && verifyThinking(thinking.thinking, thinking.signature)).toBe(true);
    expect(redacted?.type).toBe('redacted_thinking');
    expect(use?.type).toBe('tool_use');
    expect(done.stopReason).toBe('tool_use');
    expect(bodyOf(0)).toMatchObject({
      thinking: { type: 'adaptive' },
      output_config: { effort: 'high' },
      max_tokens: 128_000,
    });
    // thinking tokens are output tokens: counted in usage (and so in cost)
    expect(done.usage.output_tokens).toBeGreaterThan(10);
  });

  it('accepts the thinking blocks sent back unchanged in the tool-use turn', async () => {
    const model = await serve(THINK_THEN_TOOL, 'claude-sonnet-5-5', { thinking: 'adaptive' });
    const first = (await collect(model, requestOf('go', { tools }))).done.message.content;
    const { done } = await collect(model, requestOf('', { tools, messages: followUp(first, (b) => b) }));
    expect(done.error).toBeUndefined();
    expect(done.message.content.at(-1)).toEqual({ type: 'text', text: 'All good.' });
  });

  it.each([
    [
      'dropped',
      (b: ContentBlock[]) => b.filter((x) => x.type === 'tool_use'),
      /Expected `thinking` or `redacted_thinking`/,
    ],
    [
      'one dropped',
      (b: ContentBlock[]) => b.filter((x) => x.type !== 'redacted_thinking'),
      /changed, reordered or partly dropped/,
    ],
    ['reordered', (b: ContentBlock[]) => [b[1]!, b[0]!, b[2]!], /changed, reordered or partly dropped/],
    [
      'changed',
      (b: ContentBlock[]) => b.map((x) => (x.type === 'thinking' ? { ...x, thinking: `${x.thinking} ` } : x)),
      /Invalid `signature` in `thinking` block/,
    ],
  ])('refuses a tool-use turn whose thinking blocks were %s, as the API does', async (_, change, message) => {
    const model = await serve(THINK_THEN_TOOL, 'claude-sonnet-5-5', { thinking: 'adaptive' });
    const first = (await collect(model, requestOf('go', { tools }))).done.message.content;
    const { done } = await collect(model, requestOf('', { tools, messages: followUp(first, change) }));
    expect(done.error?.kind).toBe('invalid_request');
    expect(done.error?.message).toMatch(message);
    expect(server!.requests[1]!.outcome).toBe('invalid');
  });

  it('degrades what a model lacks: adaptive becomes a budget, effort and thinking are left out where unsupported', async () => {
    const haiku = await serve(
      { rules: [{ times: 'always', content: [{ type: 'text', text: 'ok' }] }] },
      'claude-haiku-4-5',
      {
        thinking: 'adaptive',
        effort: 'low',
      },
    );
    await collect(haiku, requestOf('hi', { maxTokens: undefined }));
    expect(bodyOf(0)).toMatchObject({
      thinking: { type: 'enabled', budget_tokens: 10_000 },
      max_tokens: 64_000,
    });
    expect(bodyOf(0).output_config).toBeUndefined();
    // a small call cannot hold the minimum budget: no thinking rather than a refused request
    await collect(haiku, requestOf('hi', { maxTokens: 512, thinking: { thinking: 'enabled' } }));
    expect(bodyOf(1).thinking).toBeUndefined();
    const local = new AnthropicModel({
      model: 'llama3.2:3b',
      apiKey: 'test-key',
      baseURL: server!.url,
      thinking: { thinking: 'enabled' },
    });
    await collect(local, requestOf('hi', { maxTokens: undefined }));
    expect(bodyOf(2)).toMatchObject({ model: 'llama3.2:3b', max_tokens: 8_192 });
    expect(bodyOf(2).thinking).toBeUndefined();
  });
});

describe('scripted thinking', () => {
  it('a recording keeps the reasoning but not the signatures; its replay signs afresh and is accepted again', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'teamd-think-rec-'));
    try {
      server = await startFakeAnthropicServer({ script: THINK_THEN_TOOL });
      const file = join(dir, 'rec.json');
      const live = await createModelClient('claude-sonnet-5-5', {
        apiKey: 'test-key',
        baseURL: server.url,
        record: file,
      });
      await collect(live, requestOf('go', { tools, thinking: { thinking: 'adaptive' } }));
      const loaded = await loadScript(file);
      expect(loaded.ok && loaded.value.steps[0]!.content.slice(0, 2)).toEqual([
        { type: 'thinking', thinking: 'I should look at the files first.' },
        { type: 'redacted_thinking' },
      ]);
      const replay = await createModelClient('scripted:rec.json', { cwd: dir });
      const first = (await collect(replay, requestOf('go', { tools }))).done.message.content;
      const thinking = first[0];
      expect(thinking?.type === 'thinking' && verifyThinking(thinking.thinking, thinking.signature)).toBe(
        true,
      );
      // the recorded tool_use id is resealed for the replayed (fresh) redacted data: sending it back passes
      const body = { model: 'm', max_tokens: 1, messages: followUp(first, (b) => b) };
      expect(thinkingKept(body)).toBeUndefined();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('the scripted model yields signed thinking blocks whose tool_use ids carry their seal', async () => {
    const model = new ScriptedModel(THINK_THEN_TOOL);
    const { done } = await collect(model, requestOf('go', { tools }));
    const first = done.message.content;
    expect(first.map((b) => b.type)).toEqual(['thinking', 'redacted_thinking', 'tool_use']);
    const body = (messages: ConversationMessage[]) => ({ model: 'm', max_tokens: 1, messages });
    expect(thinkingKept(body(followUp(first, (b) => b)))).toBeUndefined();
    expect(thinkingKept(body(followUp(first, (b) => b.slice(2))))).toMatch(/Expected `thinking`/);
  });

  it('any change to a thinking block or its order is refused; the blocks as received always pass (generated)', async () => {
    const script = (texts: string[]): ScriptInput => ({
      steps: [
        {
          content: [
            ...texts.map((thinking) => ({ type: 'thinking' as const, thinking })),
            { type: 'tool_use', name: 'bash', input: {} },
          ],
        },
      ],
    });
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.string(), { minLength: 1, maxLength: 4 }),
        fc.nat(),
        fc.string({ minLength: 1 }),
        async (texts, at, extra) => {
          const { done } = await collect(new ScriptedModel(script(texts)), requestOf('go', { tools }));
          const first = done.message.content;
          const body = (messages: ConversationMessage[]) => ({ model: 'm', max_tokens: 1, messages });
          expect(thinkingKept(body(followUp(first, (b) => b)))).toBeUndefined();
          const i = at % texts.length;
          const edited = (b: ContentBlock[]) =>
            b.map((x, j) => (j === i && x.type === 'thinking' ? { ...x, thinking: x.thinking + extra } : x));
          expect(thinkingKept(body(followUp(first, edited)))).toMatch(/Invalid `signature`/);
          const dropped = (b: ContentBlock[]) => b.filter((_, j) => j !== i);
          expect(thinkingKept(body(followUp(first, dropped)))).toMatch(/thinking/);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('a cache mark never lands on a thinking block', () => {
    const [message] = messagesWithCache([
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'x' },
          { type: 'thinking', thinking: 't', signature: 's' },
        ],
      },
    ]);
    expect(message!.content).toEqual([
      { type: 'text', text: 'x', cache_control: { type: 'ephemeral' } },
      { type: 'thinking', thinking: 't', signature: 's' },
    ]);
  });
});
