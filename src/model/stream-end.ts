/**
 * What the end of a stream means. Servers differ (compatible endpoints leave
 * out `message_delta` or `message_stop`, some answer a streaming request with
 * JSON or with `data:` lines the SDK cannot name), so the content decides,
 * not the closing events:
 * - complete blocks, whatever closing events came: a whole answer;
 * - a block still open: the answer was cut off, an error (never a success);
 * - nothing usable at all: try once without streaming.
 * The one empty answer that counts as an answer is a complete one: the model
 * really said nothing (`message_stop` came, no block was ever opened).
 */
import { modelError } from './errors.js';
import type { MessageAssembler } from './message-assembler.js';
import type { ModelError, StopReason } from './types.js';

export type StreamEnd =
  { kind: 'ok'; stopReason: StopReason } | { kind: 'empty' } | { kind: 'broken'; error: ModelError };

export function judgeStreamEnd(assembler: MessageAssembler): StreamEnd {
  if (assembler.openBlocks > 0) {
    const error = modelError('connection', 'the stream ended inside a content block (no content_block_stop)');
    return { kind: 'broken', error };
  }
  const content = assembler.message().content;
  if (content.length === 0 && !assembler.complete) return { kind: 'empty' };
  return { kind: 'ok', stopReason: assembler.stopReason ?? inferredStop(content) };
}

/** No `message_delta` said why the message ended: a tool call means it stopped for the tool. */
const inferredStop = (content: { type: string }[]): StopReason =>
  content.some((block) => block.type === 'tool_use') ? 'tool_use' : 'end_turn';
