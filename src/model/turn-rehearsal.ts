/**
 * The first turn's path, rehearsed once per process while the first real
 * request waits for its answer (a model takes hundreds of milliseconds to
 * answer; the CPU is idle then). Without it, the first answer pays for code
 * run for the first time between its last byte and the next request: fetch's
 * HTTP parser (llhttp in WebAssembly, compiled function by function on first
 * use), a reused connection's write path, web streams, the SDK's SSE decoder
 * and request builder, and this client's assembly and retry loop, cold in
 * V8's inline caches even with the CLI's code cache.
 *
 * The rehearsal is two requests of the real request's shape (its system,
 * tools and messages, then the same with a tool call and its result) on one
 * keep-alive connection to a canned endpoint on 127.0.0.1
 * (canned-endpoint.ts), made by another client instance with its own ledger:
 * nothing of it reaches the real endpoint, the caller's usage, output or
 * transcripts. It never throws, holds no handle that keeps the process
 * alive, and is cancelled by the owner when the real run is done with it.
 */
import { startCannedEndpoint, sseOf } from './canned-endpoint.js';
import type { ConversationMessage, ModelClient, ModelRequest } from './types.js';

const ID = 'toolu_rehearsal';
const usage = { input_tokens: 1, output_tokens: 1 };
const start = { type: 'message_start', message: { id: 'msg_rehearsal', type: 'message', role: 'assistant', model: 'rehearsal', content: [], stop_reason: null, stop_sequence: null, usage } };
const end = (stop: string) => [{ type: 'message_delta', delta: { stop_reason: stop, stop_sequence: null }, usage }, { type: 'message_stop' }];

/** A tool call of `tool` (no input), as the API streams one. */
const toolAnswer = (tool: string): string[] =>
  sseOf([
    start,
    { type: 'ping' },
    { type: 'content_block_start', index: 0, content_block: { type: 'tool_use', id: ID, name: tool, input: {} } },
    { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: '{}' } },
    { type: 'content_block_stop', index: 0 },
    ...end('tool_use'),
  ]);

const TEXT_ANSWER = sseOf([
  start,
  { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
  { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'ok' } },
  { type: 'content_block_stop', index: 0 },
  ...end('end_turn'),
]);

/** What the second request adds: the call and its result. */
const toolRound = (tool: string): ConversationMessage[] => [
  { role: 'assistant', content: [{ type: 'tool_use', id: ID, name: tool, input: {} }] },
  { role: 'user', content: [{ type: 'tool_result', tool_use_id: ID, content: 'ok' }] },
];

export interface TurnRehearsal {
  /** Stops it (a no-op once it ended). */
  cancel(): void;
  /** Settles when it ended or was cancelled; never rejects. */
  readonly done: Promise<void>;
}

let wanted = false;
let started = false;

/** Asks for the rehearsal in this process (a one-shot command: `teamd agent`). */
export function rehearseFirstTurn(): void {
  wanted = true;
}

/** Whether this process asked for the rehearsal. */
export const turnRehearsalWanted = (): boolean => wanted;

/** True once per process, for the first call that should start the rehearsal. */
export function claimTurnRehearsal(): boolean {
  if (!wanted || started) return false;
  started = true;
  return true;
}

async function drain(stream: AsyncIterable<unknown>, signal: AbortSignal): Promise<void> {
  for await (const _event of stream) if (signal.aborted) return;
}

/**
 * Runs the rehearsal of `request` now, with a client that `make` builds for
 * the canned endpoint's URL.
 */
export function startTurnRehearsal(make: (baseURL: string) => ModelClient, request: ModelRequest): TurnRehearsal {
  const controller = new AbortController();
  return { cancel: () => controller.abort(), done: rehearse(make, request, controller.signal) };
}

/** The two requests against a canned endpoint; never rejects. */
async function rehearse(make: (baseURL: string) => ModelClient, request: ModelRequest, signal: AbortSignal): Promise<void> {
  const tool = request.tools[0]?.name;
  const answers = tool === undefined ? [TEXT_ANSWER] : [toolAnswer(tool), TEXT_ANSWER];
  try {
    const endpoint = await startCannedEndpoint(answers);
    try {
      const client = make(endpoint.url);
      const base = { system: request.system, tools: request.tools, maxTokens: request.maxTokens, thinking: request.thinking, signal };
      await drain(client.stream({ ...base, messages: request.messages }), signal);
      if (tool !== undefined && !signal.aborted)
        await drain(client.stream({ ...base, messages: [...request.messages, ...toolRound(tool)] }), signal);
    } finally {
      endpoint.close();
    }
  } catch {
    // a rehearsal has nothing to report: the real call meets any real problem
  }
}
