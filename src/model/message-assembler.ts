/**
 * Builds the assistant message from raw stream events, turning them into
 * teamd's `ModelStreamEvent`s as they complete. Thinking and redacted-thinking
 * blocks are kept whole with their signatures (they must go back unchanged);
 * blocks teamd does not model (server tools) are skipped, so event indexes are
 * positions in the final message's content, not the API's block indexes.
 */
import type { BlockStart, ContentBlock, ModelStreamEvent, StopReason, Usage } from './types.js';
import { mergeWireUsage, usageOf } from './usage.js';
import type { WireContentBlock, WireStreamEvent } from './wire.js';

type Partial =
  | { type: 'text'; index: number; text: string }
  | { type: 'tool_use'; index: number; id: string; name: string; json: string }
  | { type: 'thinking'; index: number; thinking: string; signature: string }
  | { type: 'redacted_thinking'; index: number; data: string };

/** A tool_use block whose input is not valid JSON: the stream is unusable. */
export class MalformedToolInput extends Error {}

const STOP_REASONS: Record<string, StopReason> = {
  end_turn: 'end_turn',
  stop_sequence: 'end_turn',
  pause_turn: 'end_turn',
  tool_use: 'tool_use',
  max_tokens: 'max_tokens',
  model_context_window_exceeded: 'max_tokens',
  refusal: 'refusal',
};

export class MessageAssembler {
  usage: Usage = usageOf();
  /** Null until `message_delta` says why the message ended. */
  stopReason: StopReason | null = null;
  /** True once `message_stop` arrived: the message is whole. */
  complete = false;
  readonly #open = new Map<number, Partial>();
  readonly #content: ContentBlock[] = [];
  #nextIndex = 0;

  /** Feeds one raw event; returns the events it completes (may throw MalformedToolInput). */
  accept(event: WireStreamEvent): ModelStreamEvent[] {
    switch (event.type) {
      case 'message_start':
        this.usage = mergeWireUsage(usageOf(), event.message.usage);
        return [{ type: 'message_start', id: event.message.id, usage: { ...this.usage } }];
      case 'content_block_start':
        return this.#start(event.index, event.content_block);
      case 'content_block_delta':
        return this.#delta(event.index, event.delta);
      case 'content_block_stop':
        return this.#stop(event.index);
      case 'message_delta':
        this.stopReason = STOP_REASONS[event.delta.stop_reason ?? ''] ?? 'end_turn';
        this.usage = mergeWireUsage(this.usage, event.usage);
        return [];
      case 'message_stop':
        this.complete = true;
        return [];
      default:
        return [];
    }
  }

  /** Blocks started and not yet stopped: more than 0 at the end of a stream means it was cut off. */
  get openBlocks(): number {
    return this.#open.size;
  }

  /** The finished blocks, in order; a block still open (cut off) is left out. */
  message(): { role: 'assistant'; content: ContentBlock[] } {
    return { role: 'assistant', content: this.#content.filter((block) => block !== undefined) };
  }

  #start(apiIndex: number, block: WireContentBlock): ModelStreamEvent[] {
    if (block.type === 'text') {
      const text = typeof block.text === 'string' ? block.text : '';
      const partial: Partial = { type: 'text', index: this.#nextIndex++, text };
      this.#open.set(apiIndex, partial);
      const start = blockStart(partial.index, { type: 'text', text: '' });
      return text === '' ? [start] : [start, { type: 'text_delta', index: partial.index, text }];
    }
    if (block.type === 'tool_use') {
      const { id, name } = block as { id: string; name: string };
      const index = this.#nextIndex++;
      this.#open.set(apiIndex, { type: 'tool_use', index, id, name, json: '' });
      return [blockStart(index, { type: 'tool_use', id, name, input: {} })];
    }
    if (block.type === 'thinking' || block.type === 'redacted_thinking') {
      const partial = openThinking(block, this.#nextIndex++);
      this.#open.set(apiIndex, partial);
      const opened = partial.type === 'thinking' ? { type: 'thinking' as const, thinking: '' as const, signature: '' as const } : { type: 'redacted_thinking' as const, data: partial.data };
      return [blockStart(partial.index, opened)];
    }
    return [];
  }

  #delta(apiIndex: number, delta: { type: string; [field: string]: unknown }): ModelStreamEvent[] {
    const partial = this.#open.get(apiIndex);
    if (partial?.type === 'text' && delta.type === 'text_delta' && typeof delta.text === 'string') {
      partial.text += delta.text;
      return [{ type: 'text_delta', index: partial.index, text: delta.text }];
    }
    if (partial?.type === 'tool_use' && delta.type === 'input_json_delta') {
      partial.json += String(delta.partial_json);
      return [{ type: 'input_json_delta', index: partial.index, partial_json: String(delta.partial_json) }];
    }
    if (partial?.type === 'thinking') {
      addThinkingDelta(partial, delta);
      if (delta.type === 'thinking_delta') return [{ type: 'thinking_delta', index: partial.index, thinking: str(delta.thinking) }];
    }
    return [];
  }

  #stop(apiIndex: number): ModelStreamEvent[] {
    const partial = this.#open.get(apiIndex);
    this.#open.delete(apiIndex);
    if (!partial) return [];
    if (partial.type === 'text') {
      this.#content[partial.index] = { type: 'text', text: partial.text };
      return [];
    }
    if (partial.type === 'thinking' || partial.type === 'redacted_thinking') {
      this.#content[partial.index] = closeThinking(partial);
      return [];
    }
    const block = {
      type: 'tool_use' as const,
      id: partial.id,
      name: partial.name,
      input: parseInput(partial),
    };
    this.#content[partial.index] = block;
    return [{ type: 'tool_use', index: partial.index, block }];
  }
}

type ThinkingPartial = Extract<Partial, { type: 'thinking' | 'redacted_thinking' }>;
const str = (value: unknown): string => (typeof value === 'string' ? value : '');

function openThinking(wire: WireContentBlock, index: number): ThinkingPartial {
  const block = wire as Record<string, unknown>;
  if (block.type === 'redacted_thinking') return { type: 'redacted_thinking', index, data: str(block.data) };
  return { type: 'thinking', index, thinking: str(block.thinking), signature: str(block.signature) };
}

/** `thinking_delta` appends reasoning; `signature_delta` carries the signature (once, at the end). */
function addThinkingDelta(
  partial: Extract<Partial, { type: 'thinking' }>,
  delta: { type: string; [field: string]: unknown },
): void {
  if (delta.type === 'thinking_delta') partial.thinking += str(delta.thinking);
  if (delta.type === 'signature_delta') partial.signature += str(delta.signature);
}

function closeThinking(partial: ThinkingPartial): ContentBlock {
  if (partial.type === 'redacted_thinking') return { type: 'redacted_thinking', data: partial.data };
  return { type: 'thinking', thinking: partial.thinking, signature: partial.signature };
}

function parseInput(partial: { name: string; json: string }): unknown {
  if (partial.json.trim() === '') return {};
  try {
    return JSON.parse(partial.json);
  } catch {
    throw new MalformedToolInput(`tool_use ${partial.name}: input is not valid JSON`);
  }
}

const blockStart = (index: number, block: BlockStart): ModelStreamEvent => ({ type: 'block_start', index, block });
