/**
 * Prompt caching. Three breakpoints mark the prefix a long run re-sends each
 * turn: the system prompt, the tool list (marked on its last tool), and the
 * conversation so far (marked on the last block of the last message that may
 * carry a mark: thinking blocks may not). The API allows four; the caller's
 * objects are copied, never changed. In the API's order (tools, system,
 * messages) each mark caches everything before it, so a turn re-reads the
 * whole previous request from the cache and writes only what is new.
 */
import {
  isThinkingBlock,
  type ContentBlock,
  type ConversationMessage,
  type ToolDefinition,
} from './types.js';
import { wireTool } from './wire-tools.js';

export const EPHEMERAL = { type: 'ephemeral' } as const;
type CacheMark = { cache_control?: typeof EPHEMERAL };

export type WireBlock = ContentBlock & CacheMark;
export interface WireMessage {
  role: 'user' | 'assistant';
  content: string | WireBlock[];
}
export type WireTool = ToolDefinition & CacheMark;
export type WireSystem = { type: 'text'; text: string; cache_control: typeof EPHEMERAL }[];

export const systemWithCache = (system: string): WireSystem | undefined =>
  system === '' ? undefined : [{ type: 'text', text: system, cache_control: EPHEMERAL }];

export function toolsWithCache(tools: ToolDefinition[]): WireTool[] {
  return tools.map((tool, i) =>
    i === tools.length - 1 ? { ...wireTool(tool), cache_control: EPHEMERAL } : { ...wireTool(tool) },
  );
}

export function messagesWithCache(messages: ConversationMessage[]): WireMessage[] {
  const last = messages.length - 1;
  return messages.map((m, i) => (i === last ? markLastBlock(m) : { role: m.role, content: m.content }));
}

function markLastBlock(message: ConversationMessage): WireMessage {
  const blocks: WireBlock[] =
    typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : [...message.content];
  const end = blocks.findLastIndex((b) => !isThinkingBlock(b) && !(b.type === 'text' && b.text === ''));
  if (end < 0) return { role: message.role, content: blocks };
  blocks[end] = { ...blocks[end]!, cache_control: EPHEMERAL };
  return { role: message.role, content: blocks };
}
