/** The SSE events of thinking blocks, as the API streams them: thinking deltas, then one signature delta. */
import { chunksOf } from '../scripted/answer-events.js';
import type { RedactedThinkingBlock, ThinkingBlock } from '../types.js';
import type { WireStreamEvent } from '../wire.js';

export function thinkingEvents(
  block: ThinkingBlock | RedactedThinkingBlock,
  index: number,
): WireStreamEvent[] {
  if (block.type === 'redacted_thinking') {
    return [
      { type: 'content_block_start', index, content_block: { type: 'redacted_thinking', data: block.data } },
      { type: 'content_block_stop', index },
    ];
  }
  return [
    { type: 'content_block_start', index, content_block: { type: 'thinking', thinking: '', signature: '' } },
    ...chunksOf(block.thinking).map((thinking): WireStreamEvent => ({
      type: 'content_block_delta',
      index,
      delta: { type: 'thinking_delta', thinking },
    })),
    { type: 'content_block_delta', index, delta: { type: 'signature_delta', signature: block.signature } },
    { type: 'content_block_stop', index },
  ];
}
