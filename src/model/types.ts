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
export const ToolResultBlockSchema = z.object({
  type: z.literal('tool_result'),
  tool_use_id: z.string(),
  content: z.union([z.string(), z.array(TextBlockSchema)]),
  is_error: z.boolean().optional(),
});
export const ContentBlockSchema = z.discriminatedUnion('type', [
  TextBlockSchema,
  ToolUseBlockSchema,
  ToolResultBlockSchema,
]);
export type TextBlock = z.infer<typeof TextBlockSchema>;
export type ToolUseBlock = { type: 'tool_use'; id: string; name: string; input: unknown };
export type ToolResultBlock = z.infer<typeof ToolResultBlockSchema>;
export type ContentBlock = TextBlock | ToolUseBlock | ToolResultBlock;

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
  | 'rate_limit'
  | 'overloaded'
  | 'server'
  | 'connection'
  | 'prompt_too_long'
  | 'auth'
  | 'invalid_request';

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
  maxTokens: number;
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
}

/** What a stream yields. It always ends with exactly one `done`. */
export type ModelStreamEvent =
  | { type: 'text_delta'; index: number; text: string }
  /** A tool_use block whose input JSON is complete: the runtime may start the tool now. */
  | { type: 'tool_use'; index: number; block: ToolUseBlock }
  /**
   * The attempt failed before any output and will be tried again after
   * `notice.delayMs` (one per retry; the runtime shows it as `system/api_retry`).
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
  stream(request: ModelRequest): AsyncIterable<ModelStreamEvent>;
}
