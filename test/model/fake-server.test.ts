import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startFakeAnthropicServer, type FakeAnthropicServer } from '../../src/model/index.js';

let server: FakeAnthropicServer;
beforeEach(async () => {
  server = await startFakeAnthropicServer({
    script: { rules: [{ times: 'always', content: [{ type: 'text', text: 'fine' }] }] },
  });
});
afterEach(async () => {
  await server.close();
});

const bashTool = { name: 'bash', description: 'run', input_schema: { type: 'object' } };

async function post(body: unknown, headers: Record<string, string> = { 'x-api-key': 'test-key' }) {
  const res = await fetch(`${server.url}/v1/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return {
    status: res.status,
    json: (await res.json()) as {
      type: string;
      error?: { type: string; message: string };
      content?: unknown;
    },
  };
}

const valid = { model: 'claude-sonnet-5-5', max_tokens: 100, messages: [{ role: 'user', content: 'hi' }] };

describe('fake Messages API', () => {
  it('answers a non-streaming request with a JSON message, accepting x-api-key', async () => {
    const { status, json } = await post(valid);
    expect(status).toBe(200);
    expect(json).toMatchObject({
      type: 'message',
      role: 'assistant',
      content: [{ type: 'text', text: 'fine' }],
      stop_reason: 'end_turn',
    });
  });

  it('refuses a missing or wrong key with 401 authentication_error', async () => {
    expect(await post(valid, {})).toMatchObject({
      status: 401,
      json: { type: 'error', error: { type: 'authentication_error' } },
    });
    expect((await post(valid, { authorization: 'Bearer nope' })).status).toBe(401);
  });

  const invalid: [string, unknown, RegExp][] = [
    ['no max_tokens', { model: 'm', messages: valid.messages }, /^max_tokens: Field required/],
    [
      'first message from the assistant',
      { ...valid, messages: [{ role: 'assistant', content: 'x' }] },
      /first message must use the "user" role/,
    ],
    [
      'two user messages in a row',
      {
        ...valid,
        messages: [
          { role: 'user', content: 'a' },
          { role: 'user', content: 'b' },
        ],
      },
      /roles must alternate.*multiple "user" roles/,
    ],
    [
      'an orphan tool_result',
      {
        ...valid,
        tools: [bashTool],
        messages: [
          { role: 'user', content: 'a' },
          { role: 'assistant', content: [{ type: 'text', text: 'b' }] },
          { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_x', content: 'out' }] },
        ],
      },
      /^messages\.2\.content\.0: unexpected `tool_use_id` found in `tool_result` blocks: toolu_x/,
    ],
    [
      'a tool_use of a tool not in tools',
      {
        ...valid,
        tools: [bashTool],
        messages: [
          { role: 'user', content: 'a' },
          { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'rm_rf', input: {} }] },
          { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'out' }] },
        ],
      },
      /tool "rm_rf" is not defined/,
    ],
    [
      'an empty text block',
      { ...valid, messages: [{ role: 'user', content: [{ type: 'text', text: '' }] }] },
      /text content blocks must be non-empty/,
    ],
  ];
  it.each(invalid)('rejects %s with 400 invalid_request_error', async (_, body, message) => {
    const { status, json } = await post(body);
    expect(status).toBe(400);
    expect(json.error!.type).toBe('invalid_request_error');
    expect(json.error!.message).toMatch(message);
  });

  it('applies a fault only to the request it matches, and records what it did', async () => {
    server.inject({ kind: 'overloaded', match: { text: 'second' } });
    const first = await post(valid);
    const second = await post({ ...valid, messages: [{ role: 'user', content: 'the second one' }] });
    expect([first.status, second.status]).toEqual([200, 529]);
    expect(second.json.error!.type).toBe('overloaded_error');
    expect(server.requests.map((r) => r.outcome)).toEqual(['answered', 'fault:overloaded']);
  });

  it('answers with a clear 400 when the script has no answer, and the script can be swapped', async () => {
    server.setScript({ steps: [{ agent: 'alice', content: [{ type: 'text', text: 'only alice' }] }] });
    const { status, json } = await post(valid);
    expect(status).toBe(400);
    expect(json.error!.message).toMatch(/no script step or rule answers this call from an unnamed agent/);
    expect(server.script!.report().unmatched).toHaveLength(1);
  });
});
