/**
 * A fake Messages API on 127.0.0.1 for tests: the real SDK talks to it over
 * real HTTP. It answers from a script (the `ScriptedModel` format), records
 * every request, validates requests as the real API does, and injects faults.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { LooseBlock, LooseMessage } from '../scripted/conversation.js';
import type { z } from 'zod';
import type { ScriptedModel } from '../scripted/scripted-model.js';
import type { FakeServerOptionsSchema, FaultMatchSchema, FaultSchema } from './options.js';
import type { ScriptInput } from '../scripted/schema.js';

/** Which requests a fault applies to; absent means the next request (schema: options.ts). */
export type FaultMatch = z.output<typeof FaultMatchSchema>;

/** A failure the server produces once, for the first request it matches; every kind is described in options.ts. */
export type Fault = z.output<typeof FaultSchema>;

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

/** `startFakeAnthropicServer`'s options (schema and field docs: options.ts). */
export type FakeServerOptions = z.input<typeof FakeServerOptionsSchema>;

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
