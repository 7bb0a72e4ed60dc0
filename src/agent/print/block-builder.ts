/**
 * One content block rebuilt from its streamed start and deltas, so its own
 * `assistant` event can be printed when the next block starts (raw-stream.ts).
 * A thinking block's signature is not streamed: it is empty here (the last
 * block, printed with the whole message, carries the real one).
 */
import type { BlockStart, ContentBlock } from '../../model/types.js';
import type { StreamDelta } from '../types.js';

export class BlockBuilder {
  private text = '';

  constructor(private readonly start: BlockStart) {}

  add(delta: StreamDelta): void {
    if (delta.type === 'text_delta') this.text += delta.text;
    else if (delta.type === 'input_json_delta') this.text += delta.partial_json;
    else if (delta.type === 'thinking_delta') this.text += delta.thinking;
  }

  /** The block as far as it streamed; undefined for a tool call whose input is not (yet) JSON. */
  block(): ContentBlock | undefined {
    const start = this.start;
    if (start.type === 'text') return { type: 'text', text: this.text };
    if (start.type === 'thinking') return { type: 'thinking', thinking: this.text, signature: '' };
    if (start.type === 'redacted_thinking') return { ...start };
    try {
      const input = this.text.trim() === '' ? {} : (JSON.parse(this.text) as Record<string, unknown>);
      return { type: 'tool_use', id: start.id, name: start.name, input };
    } catch {
      return undefined;
    }
  }
}
