/** A scripted answer as the stream events a real model would produce. */
import type { BlockStart, ContentBlock, ModelStreamEvent } from '../types.js';

/** Splits text into up to `parts` pieces, so consumers see several deltas as from the API. */
export function chunksOf(text: string, parts = 3): string[] {
  if (text.length <= 1) return [text];
  const size = Math.ceil(text.length / Math.min(parts, text.length));
  const chunks: string[] = [];
  for (let at = 0; at < text.length; at += size) chunks.push(text.slice(at, at + size));
  return chunks;
}

/** The events of one block: text deltas for text, input deltas then one `tool_use` event for a tool call, thinking deltas. */
export function blockEvents(block: ContentBlock, index: number): ModelStreamEvent[] {
  if (block.type === 'text')
    return [start(index, { type: 'text', text: '' }), ...chunksOf(block.text).map((text): ModelStreamEvent => ({ type: 'text_delta', index, text }))];
  if (block.type === 'tool_use') {
    const json = JSON.stringify(block.input ?? {});
    const parts = chunksOf(json).map((partial_json): ModelStreamEvent => ({ type: 'input_json_delta', index, partial_json }));
    const opened = start(index, { type: 'tool_use', id: block.id, name: block.name, input: {} });
    return [opened, ...parts, { type: 'tool_use', index, block }];
  }
  if (block.type === 'thinking') {
    const deltas = chunksOf(block.thinking).map((thinking): ModelStreamEvent => ({ type: 'thinking_delta', index, thinking }));
    return [start(index, { type: 'thinking', thinking: '', signature: '' }), ...deltas];
  }
  return [];
}

const start = (index: number, block: BlockStart): ModelStreamEvent => ({ type: 'block_start', index, block });
