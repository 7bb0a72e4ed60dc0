/** The fake server's "compatible endpoint" mode, and the real SDK's client on it: what degrades, and that nothing fails for it. */
import { afterEach, beforeEach, expect, it } from 'vitest';
import { AnthropicModel, startFakeAnthropicServer, type FakeAnthropicServer } from '../../src/model/index.js';
import { FAST_BACKOFF, collect, requestOf } from './support.js';

let server: FakeAnthropicServer;
beforeEach(async () => {
  server = await startFakeAnthropicServer({
    compatible: true,
    apiKey: 'ollama',
    script: { rules: [{ times: 'always', content: [{ type: 'text', text: 'local answer' }] }] },
  });
});
afterEach(async () => {
  await server.close();
});

const post = (headers: Record<string, string>) =>
  fetch(`${server.url}/v1/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ model: 'llama3', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] }),
  });

it('takes the token only as Authorization: Bearer', async () => {
  expect((await post({ 'x-api-key': 'ollama' })).status).toBe(401);
  const ok = await post({ authorization: 'Bearer ollama' });
  expect(ok.status).toBe(200);
  const body = (await ok.json()) as { usage: Record<string, number> };
  expect(Object.keys(body.usage).sort()).toEqual(['input_tokens', 'output_tokens']);
});

it('lists models in the OpenAI shape and has no token counting route', async () => {
  const auth = { authorization: 'Bearer ollama' };
  const models = (await (await fetch(`${server.url}/v1/models`, { headers: auth })).json()) as {
    object: string;
  };
  expect(models).toMatchObject({ object: 'list', data: [{ id: 'local-model', object: 'model' }] });
  const count = await fetch(`${server.url}/v1/messages/count_tokens`, {
    method: 'POST',
    headers: auth,
    body: '{}',
  });
  expect(count.status).toBe(404);
});

it('an arbitrary model name, cache marks and no cache accounting: the client answers, usage without cache', async () => {
  const model = new AnthropicModel({
    model: 'qwen3-coder:30b',
    authToken: 'ollama',
    baseURL: server.url,
    backoff: FAST_BACKOFF,
  });
  const first = await collect(model, requestOf('hi'));
  const second = await collect(model, requestOf('hi'));
  for (const { done } of [first, second]) {
    expect(done).toMatchObject({ stopReason: 'end_turn', model: 'qwen3-coder:30b' });
    expect(done.error).toBeUndefined();
    expect(done.usage.cache_read_input_tokens).toBe(0);
    expect(done.usage.cache_creation_input_tokens).toBe(0);
    expect(done.usage.input_tokens).toBeGreaterThan(0);
  }
  expect(server.requests[0]!.headers.authorization).toBe('Bearer ollama');
  expect(model.ledger.snapshot().costUsd).toEqual({ 'qwen3-coder:30b': 0 });
});
