/**
 * A silent empty success is impossible by construction: a run whose last
 * answer has no content ends as an error, unless the model ended its turn
 * with nothing to say. Issue 18: a stream without `content_block_stop` used
 * to end in `success` with an empty result and no tool run.
 */
import { expect, test } from 'vitest';
import { AgentRuntime } from '../../src/agent/runtime.js';
import { AnthropicModel } from '../../src/model/anthropic.js';
import { startFakeAnthropicServer } from '../../src/model/fake-server/server.js';
import type { Fault } from '../../src/model/fake-server/types.js';
import type { ModelClient, ModelStreamEvent, StopReason } from '../../src/model/types.js';
import { emptyUsage } from '../../src/model/types.js';
import { countingTool } from './support/probe-tools.js';
import { collect, tempDir } from './support/workspace.js';

test('a stream that never closes its blocks ends the run as an error, with no tool run', async () => {
  await using dir = await tempDir();
  await using server = await startFakeAnthropicServer({
    script: {
      rules: [{ times: 'always', content: [{ type: 'tool_use', name: 'count', input: { to: 2 } }] }],
    },
    faults: Array.from({ length: 3 }, (): Fault => ({ kind: 'no_content_block_stop' })),
  });
  const model = new AnthropicModel({
    model: 'claude-sonnet-5-5',
    apiKey: 'test-key',
    baseURL: server.url,
    maxRetries: 2,
    backoff: { baseDelayMs: 1, maxDelayMs: 2 },
  });
  const runtime = new AgentRuntime({ model, cwd: dir.path, tools: [countingTool] });
  const { events, result } = await collect(runtime.submitMessage('Count.'));
  expect(result).toMatchObject({ subtype: 'error_during_execution', is_error: true });
  expect(result.error).toMatch(/inside a content block/);
  expect(events.filter((e) => e.type === 'tool_use_summary')).toEqual([]);
  expect(events.filter((e) => e.type === 'system' && e.subtype === 'api_retry')).toHaveLength(2);
});

/** A model whose every answer is empty with the given stop reason. */
const emptyModel = (stopReason: StopReason): ModelClient => ({
  model: 'empty',
  async *stream(): AsyncIterable<ModelStreamEvent> {
    await Promise.resolve();
    const message = { role: 'assistant' as const, content: [] };
    yield { type: 'done', message, stopReason, usage: emptyUsage(), model: 'empty' };
  },
});

test.each(['tool_use', 'max_tokens', 'refusal'] as const)(
  'an empty answer that stopped for %s is an error result',
  async (stopReason) => {
    await using dir = await tempDir();
    const runtime = new AgentRuntime({ model: emptyModel(stopReason), cwd: dir.path, tools: [] });
    const { result } = await collect(runtime.submitMessage('Hello'));
    expect(result).toMatchObject({ subtype: 'error_during_execution', is_error: true });
    expect(result.error).toContain(`stop reason ${stopReason}`);
  },
);

test('an empty end_turn (the model said nothing) is a success with an empty result', async () => {
  await using dir = await tempDir();
  const runtime = new AgentRuntime({ model: emptyModel('end_turn'), cwd: dir.path, tools: [] });
  const { result } = await collect(runtime.submitMessage('Hello'));
  expect(result).toMatchObject({ subtype: 'success', result: '' });
});
