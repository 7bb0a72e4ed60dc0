/**
 * Issue 18's table: servers that stream slightly differently, each a fake-server
 * fault, against the real SDK. What matters is the content: complete blocks are
 * an answer whatever closing events came; an open block is an error; a stream
 * with nothing usable is followed by one non-streaming request.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  AnthropicModel,
  startFakeAnthropicServer,
  type AnthropicModelOptions,
  type FakeAnthropicServer,
  type Fault,
} from '../../src/model/index.js';
import { clientOn, collect, requestOf, textOf, tools } from './support.js';

let server: FakeAnthropicServer;
const TOOL_ANSWER = [
  { type: 'text' as const, text: 'Listing.' },
  { type: 'tool_use' as const, name: 'bash', input: { command: 'ls -la' } },
];

beforeEach(async () => {
  server = await startFakeAnthropicServer({ script: { rules: [{ times: 'always', content: TOOL_ANSWER }] } });
});
afterEach(async () => {
  await server.close();
});

const client = (extra: Partial<AnthropicModelOptions> = {}): AnthropicModel => clientOn(server.url, extra);

async function run(model = client()) {
  const result = await collect(model, requestOf('hi', { tools }));
  const requests = server.requests.map((r) => ({ outcome: r.outcome, stream: r.body?.stream === true }));
  return { ...result, requests, retries: result.events.filter((e) => e.type === 'retry') };
}

const WHOLE = [
  { type: 'text', text: 'Listing.' },
  expect.objectContaining({ type: 'tool_use', name: 'bash', input: { command: 'ls -la' } }),
];

describe('streams that end differently', () => {
  it.each(['sse_data_only', 'json_for_stream'] as const)(
    '%s: nothing usable, so one non-streaming request answers',
    async (kind) => {
      server.inject({ kind });
      const { done, requests, retries, events } = await run();
      expect(requests).toEqual([
        { outcome: `fault:${kind}`, stream: true },
        { outcome: 'answered', stream: false },
      ]);
      expect(retries).toEqual([]);
      expect(done).toMatchObject({ stopReason: 'tool_use', message: { content: WHOLE } });
      expect(textOf(events)).toBe('Listing.');
      expect(events.filter((e) => e.type === 'tool_use')).toHaveLength(1);
    },
  );

  it.each(['no_message_delta', 'no_message_stop'] as const)(
    '%s: complete blocks are the answer (the stop reason from the blocks when unsaid)',
    async (kind) => {
      server.inject({ kind });
      const { done, requests } = await run();
      expect(requests).toEqual([{ outcome: `fault:${kind}`, stream: true }]);
      expect(done).toMatchObject({ stopReason: 'tool_use', message: { content: WHOLE } });
      expect(done.error).toBeUndefined();
      expect(done.usage.input_tokens + done.usage.cache_creation_input_tokens).toBeGreaterThan(0);
    },
  );

  it('no_content_block_stop after text went out: retried (the text marked void), never a success from the broken stream', async () => {
    server.inject({ kind: 'no_content_block_stop' });
    const { done, requests, retries, events } = await run();
    expect(requests.map((r) => r.outcome)).toEqual(['fault:no_content_block_stop', 'answered']);
    expect(retries).toEqual([{ type: 'retry', notice: expect.objectContaining({ discarded: true }) }]);
    expect(retries[0]!.type === 'retry' && retries[0]!.notice.error.message).toMatch(/inside a content block/);
    expect(textOf(events)).toBe('Listing.Listing.');
    expect(events.filter((e) => e.type === 'tool_use')).toHaveLength(1);
    expect(done).toMatchObject({ stopReason: 'tool_use', message: { content: WHOLE } });
  });

  it('no_content_block_stop before any output is retried; on every try it ends in an error after the retries', async () => {
    server.setScript({ rules: [{ times: 'always', content: [TOOL_ANSWER[1]!] }] });
    server.inject({ kind: 'no_content_block_stop' });
    const once = await run();
    expect(once.requests.map((r) => r.outcome)).toEqual(['fault:no_content_block_stop', 'answered']);
    expect(once.retries).toHaveLength(1);
    expect(once.done).toMatchObject({ stopReason: 'tool_use', message: { content: [WHOLE[1]] } });

    server.requests.length = 0;
    server.inject(Array.from({ length: 3 }, (): Fault => ({ kind: 'no_content_block_stop' })));
    const always = await run(client({ maxRetries: 2 }));
    expect(always.requests).toHaveLength(3);
    expect(always.retries).toHaveLength(2);
    expect(always.done).toMatchObject({
      stopReason: 'error',
      error: { kind: 'connection' },
      message: { content: [] },
    });
    expect(always.done.error!.message).toMatch(/inside a content block.*gave up after 2 retries/);
  });

  it('an SSE error event is retried, and a second in a row falls back to a non-streaming request', async () => {
    server.inject([{ kind: 'stream_error' }, { kind: 'stream_error', errorType: 'api_error' }]);
    const { done, requests, retries } = await run();
    expect(requests).toEqual([
      { outcome: 'fault:stream_error', stream: true },
      { outcome: 'fault:stream_error', stream: true },
      { outcome: 'answered', stream: false },
    ]);
    expect(retries.map((r) => r.type === 'retry' && r.notice.error.kind)).toEqual(['overloaded', 'server']);
    expect(done).toMatchObject({ stopReason: 'tool_use', message: { content: WHOLE } });
  });

  it('a complete stream with no content is the model saying nothing: end_turn, not an error', async () => {
    server.setScript({ rules: [{ times: 'always', content: [], stop_reason: 'end_turn' }] });
    const { done, requests } = await run();
    expect(requests).toHaveLength(1);
    expect(done).toMatchObject({ stopReason: 'end_turn', message: { content: [] } });
    expect(done.error).toBeUndefined();
  });
});
