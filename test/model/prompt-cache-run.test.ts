import { describe, expect, test } from 'vitest';
import { AgentRuntime } from '../../src/agent/runtime.js';
import { startFakeAnthropicServer } from '../../src/model/fake-server/server.js';
import { validateRequest } from '../../src/model/fake-server/validate.js';
import { PromptCache } from '../../src/model/fake-server/prompt-cache.js';
import type { MessagesRequestBody } from '../../src/model/fake-server/types.js';
import { AnthropicModel } from '../../src/model/anthropic.js';
import type { Usage } from '../../src/model/types.js';
import { builtinTools } from '../../src/tools/index.js';
import { collect, tempDir } from '../agent/support/workspace.js';

const TURNS = 10;
const marks = (value: unknown): number =>
  Array.isArray(value)
    ? value.reduce((n: number, v) => n + marks(v), 0)
    : value && typeof value === 'object'
      ? Object.entries(value).reduce((n, [k, v]) => n + (k === 'cache_control' ? 1 : marks(v)), 0)
      : 0;

const cacheShare = (u: Usage): number =>
  u.cache_read_input_tokens / (u.input_tokens + u.cache_read_input_tokens + u.cache_creation_input_tokens);

/** Each request's input usage, replayed through a fresh cache simulation; prompt = every input token. */
function perRequest(bodies: MessagesRequestBody[]): { read: number; prompt: number }[] {
  const cache = new PromptCache();
  return bodies.map((b) => {
    const u = cache.usageFor(b);
    return { read: u.cache_read_input_tokens, prompt: u.input_tokens + u.cache_read_input_tokens + u.cache_creation_input_tokens };
  });
}

describe("prompt caching with the fake server's cache simulation", () => {
  // Cold, no run whose prompt grows can read 90% in 10 turns: request i reads at most request i-1's prompt,
  // so the share is at most (T0+…+T8)/(T0+…+T9) < 0.9. What a run can do is lose nothing: every request
  // reads the whole previous prompt (no churn in tools, system or history), which this test asserts.
  test('a cold 10-turn run: every request reads the whole previous prompt from the cache, so the share is the bound', async () => {
    await using dir = await tempDir();
    const steps = Array.from({ length: TURNS }, (_, i) => ({
      content:
        i < TURNS - 1
          ? [{ type: 'tool_use' as const, name: 'bash', input: { command: `echo step ${i}` } }]
          : [{ type: 'text' as const, text: 'Done.' }],
    }));
    await using server = await startFakeAnthropicServer({ script: { steps } });
    const model = new AnthropicModel({ model: 'claude-sonnet-5-5', apiKey: 'test-key', baseURL: server.url, maxRetries: 0 });
    const runtime = new AgentRuntime({ model, cwd: dir.path, tools: builtinTools(), maxTurns: TURNS + 1 });
    const { result } = await collect(runtime.submitMessage('Run the steps.'));
    expect(result).toMatchObject({ subtype: 'success', result: 'Done.' });
    const usage = perRequest(server.requests.map((r) => r.body!));
    expect(usage).toHaveLength(TURNS);
    for (let i = 1; i < TURNS; i++) expect(usage[i]!.read, `request ${i}`).toBe(usage[i - 1]!.prompt);
    const bound = usage.slice(0, -1).reduce((n, u) => n + u.prompt, 0) / usage.reduce((n, u) => n + u.prompt, 0);
    expect(cacheShare(model.ledger.totalUsage)).toBeCloseTo(bound, 6);
    expect(bound).toBeLessThan(0.9);
  });

  // Cold, the first request's write alone caps a 10-turn run just under 90% (its prefix is most of every
  // later prompt); a team's later runs find the stable prefix (tools, then system) already cached.
  test(`a ${TURNS}-turn run on a warm prefix reads at least 90% of its input from the cache, with at most 4 breakpoints per request`, async () => {
    await using dir = await tempDir();
    const steps = (run: string) => [
      ...Array.from({ length: TURNS - 1 }, (_, i) => ({
        conversation: run,
        content: [{ type: 'tool_use' as const, name: 'bash', input: { command: `echo ${run} step ${i}` } }],
      })),
      { conversation: run, content: [{ type: 'text' as const, text: 'Done.' }] },
    ];
    await using server = await startFakeAnthropicServer({
      script: { steps: [...steps('first'), ...steps('second')] },
    });
    const model = new AnthropicModel({
      model: 'claude-sonnet-5-5',
      apiKey: 'test-key',
      baseURL: server.url,
      maxRetries: 0,
    });
    const run = async (prompt: string): Promise<Usage> => {
      const before = model.ledger.totalUsage;
      const runtime = new AgentRuntime({
        model,
        cwd: dir.path,
        tools: builtinTools(),
        maxTurns: TURNS + 1,
        context: { inject: false },
      });
      const { result } = await collect(runtime.submitMessage(prompt));
      expect(result).toMatchObject({ subtype: 'success', result: 'Done.' });
      const after = model.ledger.totalUsage;
      return {
        input_tokens: after.input_tokens - before.input_tokens,
        output_tokens: after.output_tokens - before.output_tokens,
        cache_read_input_tokens: after.cache_read_input_tokens - before.cache_read_input_tokens,
        cache_creation_input_tokens: after.cache_creation_input_tokens - before.cache_creation_input_tokens,
      };
    };
    const cold = await run('Run the first steps.');
    const warm = await run('Run the second steps.');
    expect(server.requests).toHaveLength(2 * TURNS);
    for (const r of server.requests) expect(marks(r.body)).toBeLessThanOrEqual(4);
    expect(cacheShare(cold)).toBeGreaterThan(0.8);
    expect(cacheShare(warm)).toBeGreaterThanOrEqual(0.9);
  });

  test('the fake server refuses a fifth cache breakpoint, as the API does', () => {
    const mark = { cache_control: { type: 'ephemeral' } };
    const body = {
      model: 'm',
      max_tokens: 10,
      system: [{ type: 'text', text: 's', ...mark }],
      tools: [
        { name: 'a', input_schema: { type: 'object' }, ...mark },
        { name: 'b', input_schema: { type: 'object' }, ...mark },
      ],
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'x', ...mark },
            { type: 'text', text: 'y', ...mark },
          ],
        },
      ],
    };
    expect(validateRequest(body)).toEqual({
      ok: false,
      message: 'A maximum of 4 blocks with cache_control may be provided. Found 5.',
    });
  });
});
