/**
 * The fake server's options and faults as zod schemas: a test that asks for
 * a fault the server does not know (`{ kind: 'timeout' }`) gets an
 * `OptionsError` naming it and the kinds there are, instead of a server that
 * silently answers normally. `Fault` and `FakeServerOptions` are inferred here.
 */
import { z } from 'zod';
import type { ScriptedModel } from '../scripted/scripted-model.js';
import type { ScriptInput } from '../scripted/schema.js';

/** Which requests a fault applies to; absent means the next request. */
export const FaultMatchSchema = z.strictObject({
  /** The agent (from the `x-teamd-agent` header or `metadata.user_id`), exactly. */
  agent: z.string().optional(),
  /** A regex searched in the latest user text. */
  text: z.string().optional(),
});

const fault = <K extends string, F extends z.ZodRawShape>(kind: K, fields: F) =>
  z.strictObject({ kind: z.literal(kind), match: FaultMatchSchema.optional(), ...fields });

/** Answers a streaming request the way some servers do (see `FaultSchema`). */
const SPOILED_STREAMS = ['sse_data_only', 'json_for_stream', 'no_message_delta', 'no_message_stop', 'no_content_block_stop'] as const;

/** A failure the server produces once, for the first request it matches (queue order). */
export const FaultSchema = z.discriminatedUnion('kind', [
  /** 429 rate_limit_error with `retry-after` (seconds, or an HTTP date string) and/or `retry-after-ms`. */
  fault('rate_limit', { retryAfter: z.union([z.number().nonnegative(), z.string()]).optional(), retryAfterMs: z.number().nonnegative().optional() }),
  /** 529 overloaded_error. */
  fault('overloaded', {}),
  /** 500 api_error, or another error status (a 5xx, or 408/409 as the retry tests use). */
  fault('server', { status: z.number().int().min(400).max(599).optional() }),
  /** The connection is reset before any response. */
  fault('reset', {}),
  /** Streams the answer, then drops the connection inside the first tool_use block (else mid-text); with
   * `at: 'after_tool'`, just after the first tool_use block is complete. Uses up the answer. */
  fault('cut_stream', { at: z.enum(['tool_input', 'after_tool']).optional() }),
  /** Streams the answer up to where `cut_stream` would cut, then sends nothing more, keeping the connection open. */
  fault('stall_stream', {}),
  /** Starts the stream, then sends an SSE `error` event (default overloaded_error). */
  fault('stream_error', { errorType: z.string().min(1).optional() }),
  /** Waits before the first byte, then answers normally. */
  fault('slow_first_byte', { delayMs: z.number().nonnegative() }),
  /** 400 invalid_request_error "prompt is too long: …". */
  fault('prompt_too_long', {}),
  /** 401 authentication_error, as for a refused key (the lead pauses the team); `status: 403` for permission_error. */
  fault('auth', { status: z.literal([401, 403]).optional() }),
  /**
   * A streaming request answered the way some servers do (the answer is used
   * up; a non-streaming request is answered normally): `data:` lines with no
   * `event:` lines, a JSON body, or the stream without its `message_delta`,
   * its `message_stop` or its `content_block_stop`s.
   */
  z.strictObject({ kind: z.enum(SPOILED_STREAMS), match: FaultMatchSchema.optional() }),
]);

/** Every fault kind, for the error that names them. */
export const FAULT_KINDS: string[] = FaultSchema.options.flatMap((o) =>
  o.shape.kind instanceof z.ZodEnum ? o.shape.kind.options : [...o.shape.kind.values],
);

/**
 * A fault checked in two steps so that an unknown `kind` is named with the
 * kinds there are (a discriminated union alone says only "Invalid input"),
 * and a bad `match` beside it is named too.
 */
const CheckedFaultSchema = z
  .looseObject({ kind: z.enum(FAULT_KINDS as [string, ...string[]]), match: FaultMatchSchema.optional() })
  .pipe(FaultSchema);

/** What `inject` takes (one fault is a list of one). */
export const FaultsSchema = z.array(CheckedFaultSchema);

export type ParsedFakeServerOptions = z.output<typeof FakeServerOptionsSchema>;

export const FakeServerOptionsSchema = z.strictObject({
  /** What the server answers: a script (the `ScriptedModel` format) or a `ScriptedModel`; checked by `ScriptedModel`. */
  script: z
    .custom<ScriptInput | ScriptedModel>((v) => typeof v === 'object' && v !== null && !Array.isArray(v), { message: 'expected a script object or a ScriptedModel' })
    .optional(),
  faults: z.array(CheckedFaultSchema).optional(),
  /** Accepted key (Bearer or x-api-key). Default `test-key`. */
  apiKey: z.string().min(1).optional(),
  /**
   * Behave like an Anthropic-compatible endpoint (Ollama, llama.cpp, vLLM,
   * LiteLLM; see compatible.ts): Bearer token only, no cache accounting, no
   * thinking, an OpenAI-style `/v1/models`.
   */
  compatible: z.boolean().optional(),
});
