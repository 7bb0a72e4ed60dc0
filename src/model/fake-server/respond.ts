/** Writing an answer in the wire format: one JSON message, or the SSE event sequence. */
import type { ServerResponse } from 'node:http';
import { chunksOf } from '../scripted/answer-events.js';
import type { ContentBlock, StopReason, Usage } from '../types.js';
import type { WireStreamEvent } from '../wire.js';
import { requestId } from './api-errors.js';
import { thinkingEvents } from './thinking-stream.js';

export interface WireAnswer {
  id: string;
  model: string;
  content: ContentBlock[];
  stopReason: StopReason;
  /** A compatible endpoint's has no cache fields. */
  usage: Usage | Pick<Usage, 'input_tokens' | 'output_tokens'>;
}

export function sendJson(res: ServerResponse, answer: WireAnswer): void {
  res.writeHead(200, { 'content-type': 'application/json', 'request-id': requestId() });
  res.end(
    JSON.stringify({
      id: answer.id,
      type: 'message',
      role: 'assistant',
      model: answer.model,
      content: answer.content,
      stop_reason: answer.stopReason,
      stop_sequence: null,
      usage: answer.usage,
    }),
  );
}

/** The SSE events of an answer; tool input arrives as several `input_json_delta`s, as from the API. */
export function streamEventsOf(answer: WireAnswer): WireStreamEvent[] {
  const { usage } = answer;
  const start: WireStreamEvent = {
    type: 'message_start',
    message: {
      id: answer.id,
      type: 'message',
      role: 'assistant',
      model: answer.model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { ...usage, output_tokens: 1 },
    },
  };
  return [
    start,
    { type: 'ping' },
    ...answer.content.flatMap(blockEvents),
    {
      type: 'message_delta',
      delta: { stop_reason: answer.stopReason, stop_sequence: null },
      usage: { output_tokens: usage.output_tokens },
    },
    { type: 'message_stop' },
  ];
}

function blockEvents(block: ContentBlock, index: number): WireStreamEvent[] {
  if (block.type === 'text') {
    return [
      { type: 'content_block_start', index, content_block: { type: 'text', text: '' } },
      ...chunksOf(block.text).map((text): WireStreamEvent => ({
        type: 'content_block_delta',
        index,
        delta: { type: 'text_delta', text },
      })),
      { type: 'content_block_stop', index },
    ];
  }
  if (block.type === 'thinking' || block.type === 'redacted_thinking') return thinkingEvents(block, index);
  if (block.type !== 'tool_use') return [];
  const json = JSON.stringify(block.input);
  return [
    {
      type: 'content_block_start',
      index,
      content_block: { type: 'tool_use', id: block.id, name: block.name, input: {} },
    },
    ...chunksOf(json, 4).map((partial_json): WireStreamEvent => ({
      type: 'content_block_delta',
      index,
      delta: { type: 'input_json_delta', partial_json },
    })),
    { type: 'content_block_stop', index },
  ];
}

/** Where a `cut_stream` fault drops the connection: after the first tool input chunk, else the first text chunk. */
export function cutPoint(events: WireStreamEvent[]): number {
  const isDelta = (kind: string) => (e: WireStreamEvent) =>
    e.type === 'content_block_delta' && e.delta.type === kind;
  const tool = events.findIndex(isDelta('input_json_delta'));
  const at = tool >= 0 ? tool : events.findIndex(isDelta('text_delta'));
  return at >= 0 ? at + 1 : 1;
}

/** Where `cut_stream` with `at: 'after_tool'` drops the connection: after the first tool_use block's stop (else as `cutPoint`). */
function afterFirstTool(events: WireStreamEvent[]): number {
  const start = events.findIndex((e) => e.type === 'content_block_start' && e.content_block.type === 'tool_use');
  const stop = events.findIndex((e, i) => i > start && e.type === 'content_block_stop');
  return start >= 0 && stop >= 0 ? stop + 1 : cutPoint(events);
}

export const sseFrame = (event: { type: string }): string =>
  `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;

export function startSse(res: ServerResponse): void {
  res.writeHead(200, {
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache',
    'request-id': requestId(),
  });
}

/** Writes the events; resolves once they are handed to the socket. */
export function writeFrames(res: ServerResponse, events: readonly { type: string }[]): Promise<void> {
  return new Promise((resolve) => res.write(events.map(sseFrame).join(''), () => resolve()));
}

/**
 * A server that streams slightly differently from the API (issue 18's table):
 * `data:` lines without `event:` lines, a JSON body for a streaming request,
 * or one kind of closing event left out.
 */
export type StreamQuirk =
  'sse_data_only' | 'json_for_stream' | 'no_message_delta' | 'no_message_stop' | 'no_content_block_stop';

/** How the normal answer is spoiled: cut, stalled, or streamed with a quirk. */
export type Spoil = 'cut' | 'cut_after_tool' | 'stall' | StreamQuirk | undefined;

const LEFT_OUT: Partial<Record<StreamQuirk, WireStreamEvent['type']>> = {
  no_message_delta: 'message_delta',
  no_message_stop: 'message_stop',
  no_content_block_stop: 'content_block_stop',
};

const dataOnlyFrame = (event: { type: string }): string => `data: ${JSON.stringify(event)}\n\n`;

/** Streams the answer; a spoiled one stops at `cutPoint`, then drops the connection ('cut') or goes silent ('stall'). */
export async function sendStream(res: ServerResponse, answer: WireAnswer, spoil: Spoil): Promise<void> {
  if (spoil === 'json_for_stream') return sendJson(res, answer);
  const events = streamEventsOf(answer);
  startSse(res);
  if (spoil === 'sse_data_only') {
    res.end(events.map(dataOnlyFrame).join(''));
    return;
  }
  if (spoil !== 'cut' && spoil !== 'cut_after_tool' && spoil !== 'stall') {
    const leftOut = spoil === undefined ? undefined : LEFT_OUT[spoil];
    await writeFrames(
      res,
      events.filter((e) => e.type !== leftOut),
    );
    res.end();
    return;
  }
  await writeFrames(res, events.slice(0, spoil === 'cut_after_tool' ? afterFirstTool(events) : cutPoint(events)));
  if (spoil !== 'stall') res.socket?.destroy();
}
