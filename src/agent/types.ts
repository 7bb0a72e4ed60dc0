/**
 * The agent runtime's events: a discriminated union of plain objects, so they
 * cross worker_threads with structuredClone unchanged and are written to JSONL
 * as they are. A run (one `submitMessage`) yields `system/init` (first run of a
 * session only), then any mix of the others, and ends with exactly one `result`.
 */
import type { BlockStart, ConversationMessage, ModelError, StopReason, Usage } from '../model/types.js';
import type { CompactStage, CompactTrigger } from './context/types.js';

/** Every event carries these. `parent_id`/`depth` trace a subagent's or teammate's events to what started them. */
export interface EventBase {
  session_id: string;
  uuid: string;
  /** The tool_use id (subagent) or agent/session that started this runtime; null at the top. */
  parent_id: string | null;
  /** 0 for a top-level agent, 1 for its subagents. */
  depth: number;
}

export type ResultSubtype =
  'success' | 'error_max_turns' | 'error_max_budget_usd' | 'error_during_execution' | 'aborted';

export interface PermissionDenial {
  tool_name: string;
  tool_use_id: string;
  tool_input: unknown;
  message: string;
}

export type AgentEvent = EventBase &
  (
    | {
        type: 'system';
        subtype: 'init';
        model: string;
        tools: string[];
        cwd: string;
        agent: string;
      }
    /** Notices: retries, hook feedback, an MCP server that failed to start, a continued answer, … */
    | { type: 'system'; subtype: 'notice' | 'hook' | 'retry'; message: string }
    /**
     * The model call failed and will be retried (one per attempt; Claude Code's
     * `system/api_retry`). `error_status` is the HTTP status, null for a
     * connection or stream failure.
     */
    | {
        type: 'system';
        subtype: 'api_retry';
        attempt: number;
        max_retries: number;
        retry_delay_ms: number;
        error_status: number | null;
        error: string;
      }
    /**
     * The conversation was compacted (see src/agent/context/types.ts for the
     * stages). `messages` is the whole conversation from here on: a transcript
     * reader starts its fold again from it.
     */
    | {
        type: 'system';
        subtype: 'compact';
        message: string;
        trigger: CompactTrigger;
        /** The stages that changed something, in order. */
        stages: CompactStage[];
        /** Measured (API usage plus estimate) before, and estimated after. */
        tokens_before: number;
        tokens_after: number;
        messages: ConversationMessage[];
      }
    /**
     * Input queued with `enqueue()` entered the conversation (in the user
     * message of the `user` event that precedes this one). `ids` are the ids the
     * caller gave (mail ids), so it can acknowledge delivery.
     */
    | { type: 'system'; subtype: 'queued_input'; message: string; ids: string[] }
    | { type: 'user'; message: ConversationMessage }
    /** `stop_reason`: why the model call ended (`end_turn`, `tool_use`, …), as the API said. */
    | { type: 'assistant'; message: ConversationMessage; model: string; usage: Usage; stop_reason?: StopReason }
    | { type: 'stream_event'; event: StreamDelta }
    | { type: 'progress'; tool_use_id: string; tool: string; text: string }
    | {
        type: 'tool_use_summary';
        tool_use_id: string;
        tool: string;
        summary: string;
        is_error: boolean;
        duration_ms: number;
      }
    | {
        type: 'result';
        subtype: ResultSubtype;
        is_error: boolean;
        /** The final assistant text (empty when none). */
        result: string;
        duration_ms: number;
        duration_api_ms: number;
        num_turns: number;
        total_cost_usd: number;
        /** Usage summed per model name. */
        usage: Record<string, Usage>;
        permission_denials: PermissionDenial[];
        /** Why the run failed, for error subtypes. */
        error?: string;
        /** The classified model failure (after the client's own retries), when that is what ended the run. */
        model_error?: ModelError;
      }
  );

export type ResultEvent = Extract<AgentEvent, { type: 'result' }>;

/**
 * A piece of the model's answer as it streams, with its block's index (`--include-partial-messages`):
 * a block opening (`content_block_start`, with a tool call's id and name), then its deltas.
 */
export type StreamDelta =
  /** The call's start, with the usage the API's `message_start` carried. */
  | { type: 'message_start'; id: string; usage: Usage }
  | { type: 'content_block_start'; index: number; content_block: BlockStart }
  | { type: 'text_delta'; text: string; index?: number }
  | { type: 'input_json_delta'; partial_json: string; index: number }
  | { type: 'thinking_delta'; thinking: string; index: number };
