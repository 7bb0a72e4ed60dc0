/**
 * A fake Messages API on 127.0.0.1 for tests: the real SDK talks to it over
 * real HTTP. It answers from a script (the `ScriptedModel` format), records
 * every request, validates requests as the real API does, and injects faults.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { LooseBlock, LooseMessage } from '../scripted/conversation.js';
import type { ScriptedModel } from '../scripted/scripted-model.js';
import type { ScriptInput } from '../scripted/schema.js';

/** Which requests a fault applies to; absent means the next request. */
export interface FaultMatch {
  /** The agent (from the `x-teamd-agent` header or `metadata.user_id`), exactly. */
  agent?: string;
  /** A regex searched in the latest user text. */
  text?: string;
}

/** A failure the server produces once, for the first request it matches (queue order). */
export type Fault = { match?: FaultMatch } &
  /** 429 rate_limit_error with `retry-after` (seconds, or an HTTP date string) and/or `retry-after-ms`. */
  (
    | { kind: 'rate_limit'; retryAfter?: number | string; retryAfterMs?: number }
    /** 529 overloaded_error. */
    | { kind: 'overloaded' }
    /** 500 api_error (or another 5xx status). */
    | { kind: 'server'; status?: number }
    /** The connection is reset before any response. */
    | { kind: 'reset' }
    /**
     * Streams the answer, then drops the connection inside the first tool_use block (else mid-text); with
     * `at: 'after_tool'`, just after the first tool_use block is complete (a client may have started its tool).
     * Uses up the answer.
     */
    | { kind: 'cut_stream'; at?: 'tool_input' | 'after_tool' }
    /** Streams the answer up to where `cut_stream` would cut, then sends nothing more, keeping the connection open. */
    | { kind: 'stall_stream' }
    /** Starts the stream, then sends an SSE `error` event (default overloaded_error). */
    | { kind: 'stream_error'; errorType?: string }
    /** Waits before the first byte, then answers normally. */
    | { kind: 'slow_first_byte'; delayMs: number }
    /** 400 invalid_request_error "prompt is too long: …". */
    | { kind: 'prompt_too_long' }
    /** 401 authentication_error, as for a refused key (the lead pauses the team); `status: 403` for permission_error. */
    | { kind: 'auth'; status?: 401 | 403 }
    /**
     * Answers a streaming request the way some servers do (the answer is used up;
     * a non-streaming request is answered normally): `data:` lines with no
     * `event:` lines, a JSON body, or the stream without its `message_delta`,
     * its `message_stop` or its `content_block_stop`s.
     */
    | {
        kind:
          | 'sse_data_only'
          | 'json_for_stream'
          | 'no_message_delta'
          | 'no_message_stop'
          | 'no_content_block_stop';
      }
  );

/**
 * A Messages API request body, as far as the server reads it (the accepted
 * shape is `RequestSchema` in request-schema.ts). `messages` may hold
 * `role: "system"` messages between the user and assistant turns, as Claude
 * Code sends them. The path may carry `?beta=true` and the headers
 * `anthropic-beta`; both are accepted and recorded, not interpreted.
 */
export interface MessagesRequestBody {
  model: string;
  max_tokens: number;
  system?: string | LooseBlock[];
  messages: LooseMessage[];
  tools?: (LooseBlock & { name: string })[];
  stream?: boolean;
  /** `user_id` is opaque: teamd puts the agent name there, Claude Code a JSON string. */
  metadata?: { user_id?: string | null };
  /** `{type:'enabled', budget_tokens}`, `{type:'disabled'}` or `{type:'adaptive', display?}`. */
  thinking?: { type: string; [field: string]: unknown };
  /** Claude Code: `{edits:[{type:'clear_thinking_20251015', keep:'all'}]}`. */
  context_management?: { edits?: LooseBlock[] };
  /** Claude Code: `{effort:'medium'}`. */
  output_config?: { effort?: string; [field: string]: unknown };
  [field: string]: unknown;
}

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** The parsed JSON body (undefined when it was not JSON). */
  body: MessagesRequestBody | undefined;
  agent: string | undefined;
  /** What the server did: `answered`, `fault:<kind>`, `invalid`, `unauthorized`, `unmatched`, `not_found`. */
  outcome: string;
}

export interface FakeServerOptions {
  script?: ScriptInput | ScriptedModel;
  faults?: Fault[];
  /** Accepted key (Bearer or x-api-key). Default `test-key`. */
  apiKey?: string;
  /**
   * Behave like an Anthropic-compatible endpoint (Ollama, llama.cpp, vLLM,
   * LiteLLM; see compatible.ts): Bearer token only, no cache accounting, no
   * thinking, an OpenAI-style `/v1/models`.
   */
  compatible?: boolean;
}

export interface FakeAnthropicServer extends AsyncDisposable {
  /** The base URL to give the SDK, e.g. `http://127.0.0.1:41234`. */
  readonly url: string;
  /** Every request received, in arrival order. */
  readonly requests: RecordedRequest[];
  inject(fault: Fault | Fault[]): void;
  setScript(script: ScriptInput | ScriptedModel): void;
  /** The script being played (to call `assertComplete()` or `report()`). */
  readonly script: ScriptedModel | undefined;
  close(): Promise<void>;
}
