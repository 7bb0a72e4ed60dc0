import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  AnthropicModel,
  backoffDelay,
  retryAfterMs,
  startFakeAnthropicServer,
  type AnthropicModelOptions,
  type FakeAnthropicServer,
  type RetryNotice,
} from '../../src/model/index.js';
import { clientOn, FAST_BACKOFF, collect, requestOf, textOf, tools } from './support.js';

let server: FakeAnthropicServer;

beforeEach(async () => {
  server = await startFakeAnthropicServer({
    script: { rules: [{ times: 'always', content: [{ type: 'text', text: 'recovered' }] }] },
  });
});
afterEach(async () => {
  await server.close();
});

const client = (extra: Partial<AnthropicModelOptions> = {}): AnthropicModel => clientOn(server.url, extra);

async function run(model: AnthropicModel, text = 'hi') {
  const notices: RetryNotice[] = [];
  const result = await collect(model, requestOf(text, { tools, onRetry: (n) => notices.push(n) }));
  return { ...result, notices, outcomes: server.requests.map((r) => r.outcome) };
}

describe('AnthropicModel retries', () => {
  it('retries a 429 after the retry-after the server gave', async () => {
    server.inject({ kind: 'rate_limit', retryAfter: 0.05 });
    const { done, notices, outcomes, events } = await run(client());
    expect(outcomes).toEqual(['fault:rate_limit', 'answered']);
    expect(notices).toEqual([
      {
        attempt: 1,
        maxRetries: 6,
        delayMs: 50,
        error: expect.objectContaining({ kind: 'rate_limit', status: 429 }),
        model: 'claude-sonnet-5-5',
      },
    ]);
    expect(done.stopReason).toBe('end_turn');
    expect(textOf(events)).toBe('recovered');
  });

  it('prefers retry-after-ms to retry-after', async () => {
    server.inject({ kind: 'rate_limit', retryAfter: 30, retryAfterMs: 20 });
    const { notices, done } = await run(client());
    expect(notices[0]!.delayMs).toBe(20);
    expect(done.stopReason).toBe('end_turn');
  });

  it('retries 500, 503, a connection reset and a mid-stream overload error that came before any content', async () => {
    server.inject([
      { kind: 'server' },
      { kind: 'server', status: 503 },
      { kind: 'reset' },
      { kind: 'stream_error' },
    ]);
    const { done, notices, outcomes } = await run(client());
    expect(outcomes).toEqual([
      'fault:server',
      'fault:server',
      'fault:reset',
      'fault:stream_error',
      'answered',
    ]);
    expect(notices.map((n) => n.error.kind)).toEqual(['server', 'server', 'connection', 'overloaded']);
    expect(notices.map((n) => n.attempt)).toEqual([1, 2, 3, 4]);
    expect(done.stopReason).toBe('end_turn');
  });

  it('switches to the fallback model after repeated overloads', async () => {
    server.inject([{ kind: 'overloaded' }, { kind: 'overloaded' }, { kind: 'overloaded' }]);
    const model = client({ fallbackModel: 'claude-haiku-5-5', fallbackAfterOverloads: 2 });
    const { done, notices } = await run(model);
    expect(server.requests.map((r) => r.body!.model)).toEqual([
      'claude-sonnet-5-5',
      'claude-sonnet-5-5',
      'claude-haiku-5-5',
      'claude-haiku-5-5',
    ]);
    expect(notices.map((n) => n.model)).toEqual([
      'claude-sonnet-5-5',
      'claude-haiku-5-5',
      'claude-haiku-5-5',
    ]);
    expect(done).toMatchObject({ stopReason: 'end_turn', model: 'claude-haiku-5-5' });
    expect(Object.keys(model.ledger.snapshot().usage)).toEqual(['claude-haiku-5-5']);
  });

  it('gives up after maxRetries with the last classified error', async () => {
    server.inject(Array.from({ length: 4 }, () => ({ kind: 'overloaded' as const })));
    const { done, outcomes } = await run(client({ maxRetries: 2 }));
    expect(outcomes).toHaveLength(3);
    expect(done).toMatchObject({
      stopReason: 'error',
      error: { kind: 'overloaded', retryable: true, status: 529 },
    });
    expect(done.message.content).toEqual([]);
  });

  // a cut after output (retried unless a tool started): anthropic-retry-after-output.test.ts

  it('retries a cut that came before anything was yielded, with no duplicate output', async () => {
    server.setScript({
      rules: [
        { times: 2, content: [{ type: 'tool_use', name: 'bash', input: { command: 'echo one two three' } }] },
      ],
    });
    server.inject({ kind: 'cut_stream' });
    const { done, events, outcomes } = await run(client());
    expect(outcomes).toEqual(['fault:cut_stream', 'answered']);
    expect(events.filter((e) => e.type === 'tool_use')).toHaveLength(1);
    // the cut attempt's block start and input chunk were held: printed once, by the answering attempt
    const starts = events.filter((e) => e.type === 'block_start');
    expect(starts).toEqual([{ type: 'block_start', index: 0, block: expect.objectContaining({ type: 'tool_use', name: 'bash', input: {} }) }]);
    const json = events.flatMap((e) => (e.type === 'input_json_delta' ? [e.partial_json] : [])).join('');
    expect(JSON.parse(json)).toEqual({ command: 'echo one two three' });
    expect(done.stopReason).toBe('tool_use');
    expect(done.message.content).toEqual([
      expect.objectContaining({ name: 'bash', input: { command: 'echo one two three' } }),
    ]);
  });

  it('answers after a slow first byte', async () => {
    server.inject({ kind: 'slow_first_byte', delayMs: 30 });
    const { done, notices } = await run(client());
    expect(done.stopReason).toBe('end_turn');
    expect(notices).toEqual([]);
  });

  it('ends aborted when the caller aborts during a backoff wait', async () => {
    server.inject({ kind: 'rate_limit', retryAfter: 30 });
    const controller = new AbortController();
    const events = [];
    const request = requestOf('hi', { signal: controller.signal, onRetry: () => controller.abort() });
    for await (const event of client({ backoff: { ...FAST_BACKOFF, maxRetryAfterMs: 60_000 } }).stream(
      request,
    ))
      events.push(event);
    expect(events.at(-1)).toMatchObject({ type: 'done', stopReason: 'aborted' });
    expect(server.requests).toHaveLength(1);
  });
});

describe('retry timing', () => {
  it('reads retry-after as seconds, an HTTP date, or retry-after-ms', () => {
    const now = Date.parse('2026-11-29T10:00:00Z');
    expect(retryAfterMs(new Headers({ 'retry-after': '1.5' }), now)).toBe(1500);
    expect(retryAfterMs(new Headers({ 'retry-after': 'Sun, 29 Nov 2026 10:00:03 GMT' }), now)).toBe(3000);
    expect(retryAfterMs(new Headers({ 'retry-after-ms': '120', 'retry-after': '9' }), now)).toBe(120);
    expect(retryAfterMs(new Headers({ 'retry-after': 'soon' }), now)).toBeUndefined();
    expect(retryAfterMs(new Headers(), now)).toBeUndefined();
  });

  it('backs off exponentially with jitter under the cap, and caps a long retry-after', () => {
    const opts = { baseDelayMs: 100, maxDelayMs: 1000, maxRetryAfterMs: 5000 };
    for (let retry = 1; retry <= 6; retry++) {
      const full = Math.min(100 * 2 ** (retry - 1), 1000);
      const delay = backoffDelay(retry, undefined, opts);
      expect(delay).toBeLessThanOrEqual(full);
      expect(delay).toBeGreaterThanOrEqual(full * 0.75);
    }
    expect(backoffDelay(1, 60_000, opts)).toBe(5000);
  });
});
