/**
 * The model contract. The agent runtime talks to every model through
 * `ModelClient` and never learns which one it is driving: the real Anthropic
 * API, an Anthropic-compatible endpoint, or a script.
 *
 * Content blocks mirror the Messages API wire format, so a conversation can be
 * sent as-is and saved as JSONL.
 */
import { z } from 'zod';

export const TextBlockSchema = z.object({ type: z.literal('text'), text: z.string() });
export const ToolUseBlockSchema = z.object({
  type: z.literal('tool_use'),
  id: z.string(),
  name: z.string(),
  input: z.unknown(),
});
/** An image or a document inside a tool result (an MCP tool's image or resource), base64 or plain text. */
export const ImageBlockSchema = z.object({
  type: z.literal('image'),
  source: z.object({ type: z.literal('base64'), media_type: z.string(), data: z.string() }),
});
export const DocumentBlockSchema = z.object({
  type: z.literal('document'),
  source: z.union([
    z.object({ type: z.literal('base64'), media_type: z.string(), data: z.string() }),
    z.object({ type: z.literal('text'), media_type: z.literal('text/plain'), data: z.string() }),
  ]),
  title: z.string().optional(),
});
export type ImageBlock = z.infer<typeof ImageBlockSchema>;
export type DocumentBlock = z.infer<typeof DocumentBlockSchema>;
/** What a tool result may carry besides text. */
export type MediaBlock = ImageBlock | DocumentBlock;

export const ToolResultBlockSchema = z.object({
  type: z.literal('tool_result'),
  tool_use_id: z.string(),
  content: z.union([z.string(), z.array(z.union([TextBlockSchema, ImageBlockSchema, DocumentBlockSchema]))]),
  is_error: z.boolean().optional(),
});
/**
 * Extended thinking, as the API returns it. `signature` (and a redacted
 * block's `data`) is the API's proof of the block: it must be sent back
 * byte for byte in the tool-use turn that produced it, or the request is
 * refused. teamd never edits, merges or reorders these blocks.
 */
export const ThinkingBlockSchema = z.object({
  type: z.literal('thinking'),
  thinking: z.string(),
  signature: z.string(),
});
export const RedactedThinkingBlockSchema = z.object({
  type: z.literal('redacted_thinking'),
  data: z.string(),
});
export const ContentBlockSchema = z.discriminatedUnion('type', [
  TextBlockSchema,
  ToolUseBlockSchema,
  ToolResultBlockSchema,
  ThinkingBlockSchema,
  RedactedThinkingBlockSchema,
]);
export type TextBlock = z.infer<typeof TextBlockSchema>;
export type ToolUseBlock = { type: 'tool_use'; id: string; name: string; input: unknown };
export type ToolResultBlock = z.infer<typeof ToolResultBlockSchema>;
export type ThinkingBlock = z.infer<typeof ThinkingBlockSchema>;
export type RedactedThinkingBlock = z.infer<typeof RedactedThinkingBlockSchema>;
export type ContentBlock = TextBlock | ToolUseBlock | ToolResultBlock | ThinkingBlock | RedactedThinkingBlock;

/** True for the blocks that carry a signature and must travel unchanged with their turn. */
export const isThinkingBlock = (block: { type: string }): block is ThinkingBlock | RedactedThinkingBlock =>
  block.type === 'thinking' || block.type === 'redacted_thinking';

/**
 * How a model thinks: `adaptive` lets the model decide (newer models),
 * `enabled` gives it a fixed budget (at least 1024 tokens, below max_tokens),
 * `off` sends no thinking parameter. `effort` (`output_config.effort`) is sent
 * only to models that take it (see models.ts).
 */
export type ThinkingMode = 'off' | 'adaptive' | 'enabled';
export type Effort = 'low' | 'medium' | 'high' | 'max';
export interface ThinkingOptions {
  thinking?: ThinkingMode;
  /** For `enabled`. Default 10 000 (cut to max_tokens - 1). */
  thinkingBudget?: number;
  effort?: Effort;
}

/** The text of a tool result (images and documents as a short placeholder), for counting, summaries and views. */
export function toolResultText(block: ToolResultBlock): string {
  if (typeof block.content === 'string') return block.content;
  return block.content
    .map((b) =>
      b.type === 'text'
        ? b.text
        : b.type === 'image'
          ? `[image ${b.source.media_type}]`
          : b.source.type === 'text'
            ? b.source.data
            : `[document ${b.source.media_type}]`,
    )
    .join('\n');
}

export const ConversationMessageSchema = z.object({
  role: z.enum(['user', 'assistant']),
  content: z.union([z.string(), z.array(ContentBlockSchema)]),
});
/** One message of a conversation, as the Messages API takes it. */
export interface ConversationMessage {
  role: 'user' | 'assistant';
  content: string | ContentBlock[];
}

/** A tool as the model sees it: name, description and a JSON Schema for its input. */
export interface ToolDefinition {
  name: string;
  description: string;
  input_schema: Record<string, unknown>;
}

export interface Usage {
  input_tokens: number;
  output_tokens: number;
  cache_read_input_tokens: number;
  cache_creation_input_tokens: number;
}

export const emptyUsage = (): Usage => ({
  input_tokens: 0,
  output_tokens: 0,
  cache_read_input_tokens: 0,
  cache_creation_input_tokens: 0,
});

export type StopReason = 'end_turn' | 'tool_use' | 'max_tokens' | 'refusal' | 'error' | 'aborted';

export type ModelErrorKind =
  'rate_limit' | 'overloaded' | 'server' | 'connection' | 'prompt_too_long' | 'auth' | 'invalid_request';

/** A classified failure: `retryable` says whether trying again can help. */
export interface ModelError {
  kind: ModelErrorKind;
  message: string;
  retryable: boolean;
  status?: number;
}

export interface ModelRequest {
  system: string;
  messages: ConversationMessage[];
  tools: ToolDefinition[];
  /** Absent: the model's maximum output (models.ts), or the client's configured cap. */
  maxTokens?: number;
  /** Extended thinking and effort for this call (a teammate's settings); sent as far as the model supports them. */
  thinking?: ThinkingOptions;
  signal: AbortSignal;
  /** Who is asking: scripted models match rules by agent name. */
  agent?: string;
  /**
   * Told before each retry sleep (a 429/5xx/529/connection failure that
   * produced no output yet). The same notice comes as a `retry` stream event,
   * which the runtime shows as `system/api_retry`; this callback stays in the
   * calling thread (it is not sent to the lead).
   */
  onRetry?: (notice: RetryNotice) => void;
}

/** One retry about to happen: which attempt failed, why, and how long until the next. */
export interface RetryNotice {
  /** 1 for the first retry. */
  attempt: number;
  /** The most retries this call may make (the `maxRetries` setting). */
  maxRetries: number;
  delayMs: number;
  error: ModelError;
  /** The model the next attempt will use (changes on fallback). */
  model: string;
  /**
   * The failed attempt had already streamed output (text, a thinking or text block) that the next
   * attempt replaces: what was shown of it is void (no tool had started, or there is no retry).
   */
  discarded?: true;
}

/** What a stream yields. It always ends with exactly one `done`. */
/** The opening of a content block as the API's `content_block_start` carries it (empty, or a tool call's id and name). */
export type BlockStart =
  | { type: 'text'; text: '' }
  | { type: 'thinking'; thinking: ''; signature: '' }
  | { type: 'redacted_thinking'; data: string }
  | { type: 'tool_use'; id: string; name: string; input: Record<string, never> };

export type ModelStreamEvent =
  | { type: 'text_delta'; index: number; text: string }
  /** A piece of a tool call's input JSON as it streams (the whole call still comes as `tool_use`). */
  | { type: 'input_json_delta'; index: number; partial_json: string }
  /** A piece of extended thinking as it streams (the signed block comes with `done`). */
  | { type: 'thinking_delta'; index: number; thinking: string }
  /**
   * A content block opened (the API's `content_block_start`, before its deltas): `text` and `thinking`
   * empty, `tool_use` with its id and name, so a consumer can print the raw event sequence.
   */
  | { type: 'block_start'; index: number; block: BlockStart }
  /** The API's `message_start` with its usage (input and cache tokens; output so far), before the first block. */
  | { type: 'message_start'; id: string; usage: Usage }
  /** A tool_use block whose input JSON is complete: the runtime may start the tool now. */
  | { type: 'tool_use'; index: number; block: ToolUseBlock }
  /**
   * The attempt failed before any tool started and will be tried again after
   * `notice.delayMs` (one per retry; the runtime shows it as `system/api_retry`).
   * With `notice.discarded` the deltas it streamed are void: the next attempt starts the answer anew.
   * Unlike `onRetry`, it crosses threads with the rest of the stream.
   */
  | { type: 'retry'; notice: RetryNotice }
  /** The call's token usage, once per call just before `done` (same value as `done.usage`). */
  | { type: 'usage'; usage: Usage }
  | {
      type: 'done';
      /** The final assistant message (partial blocks dropped on error/abort). */
      message: { role: 'assistant'; content: ContentBlock[] };
      stopReason: StopReason;
      usage: Usage;
      /** The model that actually answered (may be a fallback). */
      model: string;
      error?: ModelError;
    };

export interface ModelClient {
  /** The configured model name (e.g. `claude-sonnet-4-5`, `scripted:demo.json`). */
  readonly model: string;
  /** The model's context window in tokens, when the client knows it (models.ts); compaction sizes itself by it. */
  readonly contextWindow?: number;
  stream(request: ModelRequest): AsyncIterable<ModelStreamEvent>;
  /**
   * Starts loading what the first call needs (the SDK, the platform's fetch)
   * while the run prepares, so that it overlaps the run's own waits (its git
   * processes). Optional; resolves when loaded and never rejects: a failed
   * load fails the first call.
   */
  warm?(): Promise<void>;
}
