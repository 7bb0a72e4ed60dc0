/**
 * The Messages API streaming events, as far as teamd reads and (in the fake
 * server) writes them. Kept loose on purpose: compatible endpoints send extra
 * fields and block types, which are ignored rather than rejected.
 */
import type { WireUsage } from './usage.js';

export type WireContentBlock =
  | { type: 'text'; text: string }
  | { type: 'tool_use'; id: string; name: string; input: unknown }
  | { type: 'thinking'; thinking: string; signature: string }
  | { type: 'redacted_thinking'; data: string }
  | { type: string; [field: string]: unknown };

export type WireDelta =
  | { type: 'text_delta'; text: string }
  | { type: 'input_json_delta'; partial_json: string }
  | { type: 'thinking_delta'; thinking: string }
  | { type: 'signature_delta'; signature: string }
  | { type: string; [field: string]: unknown };

export interface WireMessageStart {
  id: string;
  type: 'message';
  role: 'assistant';
  model: string;
  content: WireContentBlock[];
  stop_reason: string | null;
  stop_sequence: string | null;
  usage: WireUsage;
}

export type WireStreamEvent =
  | { type: 'message_start'; message: WireMessageStart }
  | { type: 'content_block_start'; index: number; content_block: WireContentBlock }
  | { type: 'content_block_delta'; index: number; delta: WireDelta }
  | { type: 'content_block_stop'; index: number }
  | {
      type: 'message_delta';
      delta: { stop_reason: string | null; stop_sequence?: string | null };
      usage: WireUsage;
    }
  | { type: 'message_stop' }
  | { type: 'ping' };
