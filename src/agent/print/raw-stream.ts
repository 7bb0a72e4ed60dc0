/**
 * The raw API event sequence of `--include-partial-messages`, as Claude Code
 * prints it: `message_start`, per block `content_block_start`, its
 * `content_block_delta`s and `content_block_stop`, then `message_delta`
 * (stop reason, usage) and `message_stop`; the `assistant` event comes just
 * before the last block's stop, where Claude Code prints it (Claude Code prints
 * one per block, teamd one per message). teamd's runtime streams only the
 * block starts and deltas (held by the model client until a call commits, so
 * a retried call repeats nothing); the message's frame is rebuilt here, one
 * open message per agent (the top level and each subagent by its tool_use).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { claudeCodeToolName } from '../../tools/claude-names.js';
import type { AgentEvent } from '../types.js';
import type { ClaudeEvent } from './types.js';

type Of<T extends AgentEvent['type']> = Extract<AgentEvent, { type: T }>;

interface OpenMessage {
  id: string;
  /** The index of the block whose start was printed and whose stop was not. */
  block: number | null;
}

export class RawStream {
  private readonly open = new Map<string | null, OpenMessage>();
  /** When the last event that is no piece of an answer came: about when the next model call started. */
  private since = performance.now();

  constructor(private readonly model: () => string) {}

  /** Another event was printed (init, a tool result, …): the next call's time to first token counts from here. */
  mark(): void {
    this.since = performance.now();
  }

  /** The run ended: a call that streamed and never became an assistant message (it failed) is dropped, so the next starts anew. */
  reset(): void {
    this.open.clear();
    this.mark();
  }

  /**
   * The call of this event's agent is retried: a message it streamed is void (the model client retries after
   * text only while no tool started). The next attempt opens a new message; the void one never gets a stop.
   */
  abandon(event: AgentEvent): void {
    this.open.delete(parentOf(event));
  }

  /** The raw events for one streamed piece: the message's start first, the previous block's stop before a new block. */
  delta(event: Of<'stream_event'>): ClaudeEvent[] {
    const parent = parentOf(event);
    const out: ClaudeEvent[] = [];
    let message = this.open.get(parent);
    if (message === undefined) {
      message = { id: `msg_${randomBytes(12).toString('hex')}`, block: null };
      this.open.set(parent, message);
      const start = line(event, message, {
        type: 'message_start',
        message: startedMessage(message.id, this.model()),
      });
      out.push({
        ...start,
        ttft_ms: Math.round(performance.now() - this.since),
        thinking_display: 'updates',
      });
    }
    const { index = 0, ...delta } = event.event;
    if (delta.type === 'content_block_start') {
      out.push(...this.stopBlock(event, message));
      message.block = index;
      const block = delta.content_block;
      const content_block =
        block.type === 'tool_use' ? { ...block, name: claudeCodeToolName(block.name) } : block;
      return [...out, line(event, message, { type: 'content_block_start', index, content_block })];
    }
    return [...out, line(event, message, { type: 'content_block_delta', index, delta })];
  }

  /** The open message's id, so the `assistant` event carries the one `message_start` gave. */
  messageId(event: AgentEvent): string | undefined {
    return this.open.get(parentOf(event))?.id;
  }

  /** After the `assistant` event: the last block's stop, `message_delta` and `message_stop` (none when nothing streamed). */
  finish(event: Of<'assistant'>): ClaudeEvent[] {
    const parent = parentOf(event);
    const message = this.open.get(parent);
    if (message === undefined) return [];
    this.open.delete(parent);
    this.mark();
    const delta = { stop_reason: event.stop_reason ?? null, stop_sequence: null };
    return [
      ...this.stopBlock(event, message),
      line(event, message, { type: 'message_delta', delta, usage: event.usage }),
      line(event, message, { type: 'message_stop' }),
    ];
  }

  private stopBlock(event: AgentEvent, message: OpenMessage): ClaudeEvent[] {
    if (message.block === null) return [];
    const index = message.block;
    message.block = null;
    return [line(event, message, { type: 'content_block_stop', index })];
  }
}

const parentOf = (event: AgentEvent): string | null => (event.depth > 0 ? event.parent_id : null);

/** One `stream_event` line with Claude Code's fields (its own uuid: one event, one line; the message's id). */
const line = (event: AgentEvent, message: OpenMessage, raw: Record<string, unknown>): ClaudeEvent => ({
  type: 'stream_event',
  event: raw,
  session_id: event.session_id,
  parent_tool_use_id: parentOf(event),
  uuid: randomUUID(),
  api_message_id: message.id,
});

const startedMessage = (id: string, model: string) => ({
  id,
  type: 'message',
  role: 'assistant',
  model,
  content: [],
  stop_reason: null,
  stop_sequence: null,
  usage: { input_tokens: 0, output_tokens: 0, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
});
