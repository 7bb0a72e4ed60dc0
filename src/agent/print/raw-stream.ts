/**
 * The raw API event sequence of `--include-partial-messages`, as Claude Code
 * prints it: `message_start` (with the input and cache usage the API gave
 * there), per block `content_block_start`, its `content_block_delta`s and
 * `content_block_stop`, then `message_delta` (stop reason, output tokens) and
 * `message_stop`. Claude Code prints one `assistant` event per content block
 * (same message id, one block each, stop_reason null, the usage of
 * `message_start`), each just before its block's stop: this class keeps the
 * open message (one per agent: the top level and each subagent by its
 * tool_use), builds each block from its deltas, and prints a block's
 * `assistant` event when the next block starts; the last one comes with the
 * message (claude-events.ts). teamd's runtime streams the message start,
 * block starts and deltas, held by the model client until a call commits, so
 * a retried call repeats nothing.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { ContentBlock, Usage } from '../../model/types.js';
import { claudeCodeToolName } from '../../tools/claude-names.js';
import type { AgentEvent } from '../types.js';
import { BlockBuilder } from './block-builder.js';
import type { ClaudeEvent } from './types.js';

type Of<T extends AgentEvent['type']> = Extract<AgentEvent, { type: T }>;

/** The `assistant` line for one block of a message (claude-events.ts builds it). */
export type BlockLine = (event: AgentEvent, id: string, block: ContentBlock, usage: Usage) => ClaudeEvent;

export interface OpenMessage {
  id: string;
  /** The usage of `message_start`, which each per-block `assistant` event carries. */
  usage: Usage;
  /** The index of the block whose start was printed and whose stop was not. */
  block: number | null;
  /** How many blocks already had their `assistant` event. */
  printed: number;
  building: BlockBuilder | null;
}

const ZERO: Usage = { input_tokens: 0, output_tokens: 0, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };

export class RawStream {
  private readonly open = new Map<string | null, OpenMessage>();
  /** When the last event that is no piece of an answer came: about when the next model call started. */
  private since = performance.now();

  constructor(
    private readonly model: () => string,
    private readonly blockLine: BlockLine,
    /** Not printing (no `--include-partial-messages`): the blocks all come with the message. */
    private readonly printing: boolean,
  ) {}

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

  /** The raw events for one streamed piece: the message's start first, the previous block's `assistant` and stop before a new block. */
  delta(event: Of<'stream_event'>): ClaudeEvent[] {
    const out: ClaudeEvent[] = [];
    const delta = event.event;
    const message = this.opened(event, delta.type === 'message_start' ? delta : undefined, out);
    if (delta.type === 'message_start') return out;
    const { index = 0 } = delta;
    if (delta.type === 'content_block_start') {
      out.push(...this.endBlock(event, message));
      message.block = index;
      message.building = new BlockBuilder(delta.content_block);
      const block = delta.content_block;
      const content_block = block.type === 'tool_use' ? { ...block, name: claudeCodeToolName(block.name) } : block;
      return [...out, line(event, message, { type: 'content_block_start', index, content_block })];
    }
    message.building?.add(delta);
    const { index: _i, ...wire } = delta;
    return [...out, line(event, message, { type: 'content_block_delta', index, delta: wire })];
  }

  /** The open message of this event's agent, opened (its `message_start` pushed to `out`) when there is none. */
  private opened(event: Of<'stream_event'>, begun: { id: string; usage: Usage } | undefined, out: ClaudeEvent[]): OpenMessage {
    const parent = parentOf(event);
    const current = this.open.get(parent);
    if (current !== undefined) return current;
    // the API's message id; a model that does not stream a start (scripted) gets one made up
    const id = begun?.id ?? `msg_${randomBytes(12).toString('hex')}`;
    const message: OpenMessage = { id, usage: { ...(begun?.usage ?? ZERO) }, block: null, printed: 0, building: null };
    this.open.set(parent, message);
    const start = line(event, message, {
      type: 'message_start',
      message: startedMessage(id, this.model(), message.usage),
    });
    out.push({ ...start, ttft_ms: Math.round(performance.now() - this.since), thinking_display: 'updates' });
    return message;
  }

  /** The message of this event's agent, taken out when it ends (undefined when nothing streamed). */
  take(event: AgentEvent): OpenMessage | undefined {
    const parent = parentOf(event);
    const message = this.open.get(parent);
    this.open.delete(parent);
    return message;
  }

  /** After the last `assistant` event: the last block's stop, `message_delta` and `message_stop`. */
  finish(event: Of<'assistant'>, message: OpenMessage): ClaudeEvent[] {
    this.mark();
    const delta = { stop_reason: event.stop_reason ?? null, stop_sequence: null };
    return [
      ...this.stopBlock(event, message),
      line(event, message, { type: 'message_delta', delta, usage: { output_tokens: event.usage.output_tokens } }),
      line(event, message, { type: 'message_stop' }),
    ];
  }

  /** The open block's `assistant` event (built from its deltas), then its stop. */
  private endBlock(event: AgentEvent, message: OpenMessage): ClaudeEvent[] {
    const built = this.printing ? message.building?.block() : undefined;
    message.building = null;
    if (built === undefined) return this.stopBlock(event, message);
    message.printed += 1;
    return [this.blockLine(event, message.id, built, message.usage), ...this.stopBlock(event, message)];
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

const startedMessage = (id: string, model: string, usage: Usage) => ({
  id,
  type: 'message',
  role: 'assistant',
  model,
  content: [],
  stop_reason: null,
  stop_sequence: null,
  usage,
});
