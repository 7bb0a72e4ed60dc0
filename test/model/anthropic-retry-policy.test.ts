/** Which statuses are retried, how long a call may retry, and what a refused credential's message says. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  AnthropicModel,
  startFakeAnthropicServer,
  type AnthropicModelOptions,
  type FakeAnthropicServer,
  type Fault,
  type ModelStreamEvent,
} from '../../src/model/index.js';
import { createModelClient } from '../../src/model/factory.js';
import { retryRefusal } from '../../src/model/retry.js';
import { clientOn, FAST_BACKOFF, collect, requestOf } from './support.js';

let server: FakeAnthropicServer;

beforeEach(async () => {
  server = await startFakeAnthropicServer({
    script: { rules: [{ times: 'always', content: [{ type: 'text', text: 'ok' }] }] },
  });
});
afterEach(async () => {
  await server.close();
});

const client = (extra: Partial<AnthropicModelOptions> = {}): AnthropicModel => clientOn(server.url, extra);

const retriesOf = (events: ModelStreamEvent[]) =>
  events.flatMap((e) => (e.type === 'retry' ? [e.notice] : []));

describe('retry policy', () => {
  it('retries 408, 409, 429, 500, 502, 503, 504 and 529, one retry event per attempt', async () => {
    const faults: Fault[] = [
      ...[408, 409, 500, 502, 503, 504].map((status): Fault => ({ kind: 'server', status })),
      { kind: 'rate_limit', retryAfterMs: 1 },
      { kind: 'overloaded' },
    ];
    server.inject(faults);
    const { events, done } = await collect(client({ maxRetries: 10 }), requestOf('hi'));
    expect(done).toMatchObject({ stopReason: 'end_turn' });
    const notices = retriesOf(events);
    expect(notices.map((n) => n.error.status)).toEqual([408, 409, 500, 502, 503, 504, 429, 529]);
    expect(notices.map((n) => n.attempt)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(notices.every((n) => n.maxRetries === 10)).toBe(true);
  });

  it.each<[number, Fault]>([
    [400, { kind: 'prompt_too_long' }],
    [401, { kind: 'auth' }],
    [403, { kind: 'auth', status: 403 }],
  ])('does not retry a %i', async (status, fault) => {
    server.inject(fault);
    const { events, done } = await collect(client(), requestOf('hi'));
    expect(retriesOf(events)).toEqual([]);
    expect(done).toMatchObject({ stopReason: 'error', error: { status, retryable: false } });
    expect(server.requests).toHaveLength(1);
  });

  it('names the variable to fix when the endpoint refuses the credential', async () => {
    server.inject([{ kind: 'auth' }, { kind: 'auth' }]);
    const model = client({ apiKey: 'wrong', credentialSource: 'LOCAL_TOKEN (endpoint.tokenEnv)' });
    const { done } = await collect(model, requestOf('hi'));
    expect(done.error!.message).toContain(
      `${server.url} refused the credential from LOCAL_TOKEN (endpoint.tokenEnv): set LOCAL_TOKEN to a key this endpoint accepts`,
    );
    const saved = { key: process.env['ANTHROPIC_API_KEY'], token: process.env['ANTHROPIC_AUTH_TOKEN'] };
    try {
      delete process.env['ANTHROPIC_API_KEY'];
      process.env['ANTHROPIC_AUTH_TOKEN'] = 'wrong';
      const tokenModel = new AnthropicModel({ model: 'm', baseURL: server.url, backoff: FAST_BACKOFF });
      const second = await collect(tokenModel, requestOf('hi'));
      expect(second.done.error!.message).toContain('refused the credential from ANTHROPIC_AUTH_TOKEN');
    } finally {
      restore('ANTHROPIC_API_KEY', saved.key);
      restore('ANTHROPIC_AUTH_TOKEN', saved.token);
    }
  });

  it('an endpoint whose token variable is unset never gets the key of another endpoint', async () => {
    const saved = process.env['ANTHROPIC_API_KEY'];
    process.env['ANTHROPIC_API_KEY'] = 'test-key';
    try {
      const model = await createModelClient('qwen3-coder', {
        endpoint: { baseURL: server.url, tokenEnv: 'TEAMD_TEST_UNSET_TOKEN' },
      });
      const { done } = await collect(model, requestOf('hi'));
      expect(server.requests[0]!.headers.authorization).not.toContain('test-key');
      expect(done.error).toMatchObject({ kind: 'auth', status: 401 });
      expect(done.error!.message).toContain(
        'no credential: TEAMD_TEST_UNSET_TOKEN (endpoint.tokenEnv) is not set',
      );
    } finally {
      restore('ANTHROPIC_API_KEY', saved);
    }
  });

  it('stops retrying at the total retry time cap, and says so', async () => {
    server.inject(Array.from({ length: 5 }, (): Fault => ({ kind: 'rate_limit', retryAfterMs: 40 })));
    const model = client({ maxRetries: 10, retryCapMs: 100 });
    const { events, done } = await collect(model, requestOf('hi'));
    expect(retriesOf(events).length).toBeLessThanOrEqual(2);
    expect(done).toMatchObject({ stopReason: 'error', error: { kind: 'rate_limit', status: 429 } });
    expect(done.error!.message).toMatch(/retry time cap 0\.1 s/);
  });

  it('refuses a retry past maxRetries or past the cap (pure)', () => {
    const policy = { maxRetries: 3, capMs: 1000 };
    expect(retryRefusal(policy, 2, 0, 10)).toBeNull();
    expect(retryRefusal(policy, 3, 0, 10)).toMatch(/maxRetries 3/);
    expect(retryRefusal(policy, 0, 900, 200)).toMatch(/retry time cap 1 s/);
  });
});

function restore(name: string, value: string | undefined): void {
  if (value === undefined) delete process.env[name];
  else process.env[name] = value;
}
