/**
 * The fake Messages API accepts what the real API accepts from the Claude Code
 * CLI (shapes recorded from Claude Code 2.1.332): `role: "system"` messages
 * mid-conversation, `?beta=true`, `anthropic-beta`, `thinking`,
 * `context_management`, `output_config`, `metadata.user_id` as a JSON string,
 * deferred tools, cache_control on tool results. And it still refuses what
 * the API refuses. Real HTTP; the real SDK for the beta path.
 */
import Anthropic from '@anthropic-ai/sdk';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeAnthropicServer, type FakeAnthropicServer } from '../../src/model/index.js';
import { validateRequest } from '../../src/model/fake-server/validate.js';

let server: FakeAnthropicServer;
beforeAll(async () => {
  server = await startFakeAnthropicServer({
    script: { rules: [{ times: 'always', content: [{ type: 'text', text: 'fine' }] }] },
  });
});
afterAll(async () => {
  await server.close();
});

const tool = { name: 'Bash', description: 'run', input_schema: { type: 'object', properties: {} } };
const claudeCodeBody = {
  model: 'claude-opus-5-5',
  max_tokens: 128000,
  stream: true,
  system: [
    { type: 'text', text: 'x-anthropic-billing-header: cc_version=2.1.332' },
    { type: 'text', text: 'You are a Claude agent.', cache_control: { type: 'ephemeral' } },
  ],
  messages: [
    {
      role: 'user',
      content: [
        { type: 'text', text: '<system-reminder>r</system-reminder>' },
        { type: 'text', text: 'make it' },
      ],
    },
    {
      role: 'system',
      content: [{ type: 'text', text: '# Environment', cache_control: { type: 'ephemeral' } }],
    },
    {
      role: 'assistant',
      content: [{ type: 'tool_use', id: 'toolu_1', name: 'Bash', input: { command: 'true' } }],
    },
    {
      role: 'user',
      content: [
        {
          type: 'tool_result',
          tool_use_id: 'toolu_1',
          content: 'ok',
          is_error: false,
          cache_control: { type: 'ephemeral' },
        },
      ],
    },
    { role: 'system', content: '<system-reminder>todo list is empty</system-reminder>' },
  ],
  tools: [
    tool,
    { name: 'Placeholder', description: 'later', input_schema: { type: 'object' }, defer_loading: true },
  ],
  metadata: { user_id: JSON.stringify({ device_id: 'd', account_uuid: '', session_id: 's' }) },
  thinking: { type: 'adaptive', display: 'updates' },
  context_management: { edits: [{ type: 'clear_thinking_20251015', keep: 'all' }] },
  output_config: { effort: 'medium' },
};

async function post(body: unknown, path = '/v1/messages?beta=true') {
  const res = await fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-api-key': 'test-key',
      'anthropic-version': '2023-06-01',
      'anthropic-beta': 'claude-code-20250219,interleaved-thinking-2025-05-14,context-management-2025-06-27',
    },
    body: JSON.stringify(body),
  });
  return { status: res.status, text: await res.text() };
}

describe('fake Messages API and Claude Code requests', () => {
  it('streams an answer to a request shaped like Claude Code’s', async () => {
    const { status, text } = await post(claudeCodeBody);
    expect(status, text).toBe(200);
    expect(text).toContain('event: message_stop');
  });

  it('the real SDK’s beta client (betas header) is answered', async () => {
    const client = new Anthropic({ apiKey: 'test-key', baseURL: server.url, maxRetries: 0 });
    const { stream: _stream, ...body } = claudeCodeBody;
    const message = await client.beta.messages
      .stream({
        ...(body as unknown as Parameters<typeof client.beta.messages.stream>[0]),
        betas: ['claude-code-20250219', 'context-management-2025-06-27'],
      })
      .finalMessage();
    expect(message.content).toMatchObject([{ type: 'text', text: 'fine' }]);
    const seen = server.requests.at(-1)!;
    expect(seen.headers['anthropic-beta']).toContain('context-management-2025-06-27');
  });

  it('a script’s afterTool condition looks through a system message after the tool results', async () => {
    const strict = await startFakeAnthropicServer({
      script: { steps: [{ afterTool: 'Bash', content: [{ type: 'text', text: 'after bash' }] }] },
    });
    try {
      const { stream: _s, ...body } = claudeCodeBody;
      const res = await fetch(`${strict.url}/v1/messages?beta=true`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': 'test-key' },
        body: JSON.stringify(body),
      });
      expect(await res.json()).toMatchObject({ content: [{ type: 'text', text: 'after bash' }] });
    } finally {
      await strict.close();
    }
  });

  const refused: [string, (b: typeof claudeCodeBody) => unknown, RegExp][] = [
    [
      'an unknown role',
      (b) => ({ ...b, messages: [b.messages[0], { role: 'bob', content: 'x' }] }),
      /^messages\.1\.role: .*'system'/,
    ],
    [
      'an image in a system message',
      (b) => ({ ...b, messages: [b.messages[0], { role: 'system', content: [{ type: 'image' }] }] }),
      /^messages\.1\.content/,
    ],
    [
      'metadata.user_id that is not a string',
      (b) => ({ ...b, metadata: { user_id: 7 } }),
      /^metadata\.user_id/,
    ],
    ['an unknown metadata key', (b) => ({ ...b, metadata: { user: 'x' } }), /^metadata/],
    [
      'a thinking budget under 1024',
      (b) => ({ ...b, thinking: { type: 'enabled', budget_tokens: 10 } }),
      /^thinking/,
    ],
    ['an unknown effort', (b) => ({ ...b, output_config: { effort: 'extreme' } }), /^output_config\.effort/],
    [
      'a context edit without a type',
      (b) => ({ ...b, context_management: { edits: [{ keep: 'all' }] } }),
      /^context_management\.edits\.0\.type/,
    ],
    [
      'a cache_control of an unknown type',
      (b) => ({ ...b, system: [{ type: 'text', text: 's', cache_control: { type: 'forever' } }] }),
      /^system\.0\.cache_control/,
    ],
    [
      'a system message first, then an assistant',
      (b) => ({ ...b, messages: [b.messages[1], b.messages[2]] }),
      /first message must use the "user" role/,
    ],
    [
      'a tool_use answered only after a system message and another assistant turn',
      (b) => ({
        ...b,
        messages: [b.messages[0], b.messages[2], b.messages[4], { role: 'assistant', content: 'x' }],
      }),
      /roles must alternate|tool_use` ids were found without/,
    ],
  ];
  it.each(refused)('refuses %s with 400 and the field', async (_name, change, message) => {
    const { status, text } = await post(change(claudeCodeBody));
    expect(status).toBe(400);
    expect((JSON.parse(text) as { error: { message: string } }).error.message).toMatch(message);
  });

  it('system messages anywhere between turns change nothing about a valid conversation (generated)', () => {
    const turns = claudeCodeBody.messages.filter((m) => m.role !== 'system');
    fc.assert(
      fc.property(fc.array(fc.nat(turns.length), { maxLength: 6 }), (positions) => {
        const messages: unknown[] = [...turns];
        for (const p of [...positions].sort((a, b) => b - a).filter((p) => p > 0))
          messages.splice(p, 0, { role: 'system', content: `reminder ${p}` });
        expect(validateRequest({ ...claudeCodeBody, messages }).ok).toBe(true);
        const doubled = [...messages, { role: 'system', content: 's' }, turns[0]];
        expect(validateRequest({ ...claudeCodeBody, messages: doubled }).ok).toBe(false);
      }),
    );
  });
});
