/**
 * The non-streaming fallback's answer as stream events: a whole message
 * (`POST /v1/messages` without `stream`) is replayed through the same
 * `MessageAssembler` a stream goes through, so both paths build the message,
 * the tool calls and the usage the same way.
 */
import { z } from 'zod';
import type { WireContentBlock, WireStreamEvent } from './wire.js';

const WireMessageSchema = z.looseObject({
  id: z.string().default('msg_non_streaming'),
  model: z.string().default(''),
  content: z.array(z.looseObject({ type: z.string() })),
  stop_reason: z.string().nullable().default(null),
  usage: z.record(z.string(), z.unknown()).nullable().default(null),
});

export type Replay = { ok: true; events: WireStreamEvent[] } | { ok: false; message: string };

/** The events a stream of `body` would have had; a body that is no message is said so. */
export function replayMessage(body: unknown): Replay {
  const parsed = WireMessageSchema.safeParse(body);
  if (!parsed.success) {
    return {
      ok: false,
      message: `the non-streaming answer is not a message (${parsed.error.issues[0]!.message})`,
    };
  }
  const message = parsed.data;
  const usage = (message.usage ?? {}) as Record<string, number>;
  const start: WireStreamEvent = {
    type: 'message_start',
    message: {
      id: message.id,
      type: 'message',
      role: 'assistant',
      model: message.model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage,
    },
  };
  const end: WireStreamEvent[] = [
    { type: 'message_delta', delta: { stop_reason: message.stop_reason }, usage },
    { type: 'message_stop' },
  ];
  return { ok: true, events: [start, ...message.content.flatMap(blockEvents), ...end] };
}

const str = (value: unknown): string => (typeof value === 'string' ? value : '');

/** One block as start, one delta carrying its content, stop: what the assembler reads from a stream. */
function blockEvents(block: WireContentBlock, index: number): WireStreamEvent[] {
  const stop: WireStreamEvent = { type: 'content_block_stop', index };
  const { type } = block;
  const open = (content_block: WireContentBlock): WireStreamEvent => ({
    type: 'content_block_start',
    index,
    content_block,
  });
  const delta = (d: { type: string; [field: string]: unknown }): WireStreamEvent => ({
    type: 'content_block_delta',
    index,
    delta: d,
  });
  if (type === 'text')
    return [open({ type, text: '' }), delta({ type: 'text_delta', text: str(block.text) }), stop];
  if (type === 'tool_use') {
    const json = JSON.stringify(block.input ?? {});
    return [open({ ...block, input: {} }), delta({ type: 'input_json_delta', partial_json: json }), stop];
  }
  if (type === 'thinking') {
    const thinking = delta({ type: 'thinking_delta', thinking: str(block.thinking) });
    const signature = delta({ type: 'signature_delta', signature: str(block.signature) });
    return [open({ type, thinking: '', signature: '' }), thinking, signature, stop];
  }
  return [open(block), stop];
}
