/**
 * Claude Code's `assistant` lines, one per content block: for any message
 * (text, thinking and tool calls in any order, streamed in any chunks), the
 * lines with `--include-partial-messages` and without carry the same blocks
 * in order, one each, under the API message's id and `message_start`'s usage.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ClaudeEventPrinter } from '../../src/agent/print/claude-events.js';
import type { AgentEvent, StreamDelta } from '../../src/agent/types.js';
import type { ContentBlock } from '../../src/model/types.js';

const base = { session_id: 's1', uuid: 'u1', parent_id: null, depth: 0 };
const options = { permissionMode: 'default' as const, apiKeySource: 'none', mcpServers: [], agents: [] };
const startUsage = {
  input_tokens: 7,
  output_tokens: 1,
  cache_read_input_tokens: 3,
  cache_creation_input_tokens: 4,
};
const finalUsage = { ...startUsage, output_tokens: 42 };

const block: fc.Arbitrary<ContentBlock> = fc.oneof(
  fc.string().map((text): ContentBlock => ({ type: 'text', text })),
  fc.string().map((thinking): ContentBlock => ({ type: 'thinking', thinking, signature: '' })),
  fc
    .dictionary(fc.string({ minLength: 1, maxLength: 4 }), fc.oneof(fc.string(), fc.integer()))
    .map((input): ContentBlock => ({ type: 'tool_use', id: 'toolu_1', name: 'bash', input })),
);

/** The pieces of a text in chunks of `size`. */
const chunks = (text: string, size: number): string[] =>
  text.length === 0
    ? []
    : Array.from({ length: Math.ceil(text.length / size) }, (_, i) => text.slice(i * size, (i + 1) * size));

function deltas(b: ContentBlock, index: number, size: number): StreamDelta[] {
  if (b.type === 'text')
    return [
      { type: 'content_block_start', index, content_block: { type: 'text', text: '' } },
      ...chunks(b.text, size).map((text) => ({ type: 'text_delta' as const, text, index })),
    ];
  if (b.type === 'thinking')
    return [
      {
        type: 'content_block_start',
        index,
        content_block: { type: 'thinking', thinking: '', signature: '' },
      },
      ...chunks(b.thinking, size).map((thinking) => ({ type: 'thinking_delta' as const, thinking, index })),
    ];
  if (b.type !== 'tool_use') return [];
  const start: StreamDelta = {
    type: 'content_block_start',
    index,
    content_block: { type: 'tool_use', id: b.id, name: b.name, input: {} },
  };
  return [
    start,
    ...chunks(JSON.stringify(b.input), size).map((partial_json) => ({
      type: 'input_json_delta' as const,
      partial_json,
      index,
    })),
  ];
}

function events(blocks: ContentBlock[], size: number): AgentEvent[] {
  const stream: StreamDelta[] = [
    { type: 'message_start', id: 'msg_api_1', usage: startUsage },
    ...blocks.flatMap((b, i) => deltas(b, i, size)),
  ];
  const message = { role: 'assistant' as const, content: blocks };
  return [
    ...stream.map((event): AgentEvent => ({ ...base, type: 'stream_event', event })),
    { ...base, type: 'assistant', message, model: 'm', usage: finalUsage, stop_reason: 'tool_use' },
  ];
}

const lines = (partial: boolean, all: AgentEvent[]) => {
  const printer = new ClaudeEventPrinter({ ...options, includePartialMessages: partial });
  return all.flatMap((e) => printer.convert(e));
};

describe('one assistant line per content block', () => {
  it('the same blocks, one per line, with and without --include-partial-messages', () => {
    fc.assert(
      fc.property(
        fc.array(block, { minLength: 1, maxLength: 5 }),
        fc.integer({ min: 1, max: 6 }),
        (blocks, size) => {
          const all = events(blocks, size);
          for (const partial of [true, false]) {
            const assistant = lines(partial, all).filter((e) => e.type === 'assistant');
            const messages = assistant.map(
              (e) =>
                e.message as { id: string; content: ContentBlock[]; usage: unknown; stop_reason: unknown },
            );
            expect(messages.map((m) => m.content.length)).toEqual(blocks.map(() => 1));
            const named = blocks.map((b) => (b.type === 'tool_use' ? { ...b, name: 'Bash' } : b));
            expect(messages.map((m) => m.content[0])).toEqual(named);
            for (const m of messages)
              expect(m).toMatchObject({ id: 'msg_api_1', usage: startUsage, stop_reason: null });
          }
        },
      ),
      { numRuns: 200 },
    );
  });

  it('the raw message_start carries the API id and usage; message_delta the output tokens', () => {
    const printed = lines(true, events([{ type: 'text', text: 'hi' }], 1)).filter(
      (e) => e.type === 'stream_event',
    );
    const raw = printed.map(
      (e) => e.event as { type: string; message?: { id: string; usage: unknown }; usage?: unknown },
    );
    expect(raw[0]).toMatchObject({ type: 'message_start', message: { id: 'msg_api_1', usage: startUsage } });
    expect(raw.find((e) => e.type === 'message_delta')!.usage).toEqual({ output_tokens: 42 });
    expect(new Set(printed.map((e) => e.api_message_id))).toEqual(new Set(['msg_api_1']));
  });
});
