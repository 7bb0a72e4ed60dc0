/**
 * `AnthropicModel`: the Messages API through @anthropic-ai/sdk, streaming.
 * The SDK's own retries are off (maxRetries 0) so that this file decides: a
 * retry happens only while nothing irreversible came of the attempt (no
 * tool_use went out, so no tool started); when text of it was streamed, the
 * retry notice says it is void (`discarded`), so a printer can drop it and the
 * caller's answer is the next attempt's alone. How a stream's
 * end is read is in stream-end.ts; a stream that brings nothing usable (a
 * server that sends JSON, or unnamed `data:` lines) is followed by one request
 * without streaming, and so is a second SSE `error` event in a row.
 *
 * The SDK itself (1.5 MB of modules, with @opentelemetry/api) is imported on
 * the first call, not with this file: a teammate thread whose model is
 * scripted, or served by the lead, never pays for it.
 */
import type Anthropic from '@anthropic-ai/sdk';
import type { ClientOptions } from '@anthropic-ai/sdk';
import {
  failureOf,
  gaveUp,
  MalformedAnswer,
  STREAM_ERRORS_BEFORE_FALLBACK,
  type AttemptEnd,
  type CallState,
  type Failed,
} from './attempt.js';
import { messagesWithCache, systemWithCache, toolsWithCache } from './cache-control.js';
import { modelError } from './errors.js';
import { MessageAssembler } from './message-assembler.js';
import { modelInfo, type ModelInfo } from './models.js';
import { UsageLedger, type PriceOverrides } from './pricing.js';
import { endpointOfOptions, type ResolvedEndpoint } from './credentials.js';
import { replayMessage } from './non-streaming.js';
import {
  backoffDelay,
  DEFAULT_BACKOFF,
  DEFAULT_RETRY_POLICY,
  retryRefusal,
  sleep,
  type BackoffOptions,
  type RetryPolicy,
} from './retry.js';
import { judgeStreamEnd } from './stream-end.js';
import { thinkingParams } from './thinking.js';
import { fetchLoaded } from './fetch-parser-tier.js';
import { whileAnswerAwaited } from './request-sent.js';
import { claimTurnRehearsal, startTurnRehearsal, type TurnRehearsal } from './turn-rehearsal.js';
import type {
  ModelClient,
  ModelRequest,
  ModelStreamEvent,
  RetryNotice,
  ThinkingOptions,
} from './types.js';
import type { WireStreamEvent } from './wire.js';

export interface AnthropicModelOptions {
  model: string;
  /** An API key. Default: from the environment (see `resolveEndpoint`: `ANTHROPIC_API_KEY`, then `ANTHROPIC_AUTH_TOKEN`). */
  apiKey?: string;
  /** A token sent as `Authorization: Bearer` (what compatible endpoints document). Not with `apiKey`. */
  authToken?: string;
  /** Named in an auth failure's message: the variable or setting to fix. */
  credentialSource?: string;
  /** Default: `ANTHROPIC_BASE_URL`, else the Anthropic API. */
  baseURL?: string;
  /** Retries per call (all models together). Default 6. */
  maxRetries?: number;
  /** No retry starts once a call has run this long. Default 120 000 (2 minutes). */
  retryCapMs?: number;
  /** Used for the rest of a call after `fallbackAfterOverloads` overloads (529) in a row. */
  fallbackModel?: string;
  /** Default 3. */
  fallbackAfterOverloads?: number;
  /** Price overrides for `ledger`. */
  prices?: PriceOverrides;
  fetch?: typeof globalThis.fetch;
  /** Per attempt. Default 600 000 (10 minutes). */
  timeoutMs?: number;
  /**
   * An upper bound on `max_tokens`. A call that names no `maxTokens` gets
   * this, else the model's maximum output (models.ts).
   */
  maxTokens?: number;
  /** Extended thinking and effort; sent as far as the model supports them. */
  thinking?: ThinkingOptions;
  backoff?: Partial<BackoffOptions>;
}

const AGENT_HEADER = 'x-teamd-agent';

export class AnthropicModel implements ModelClient {
  readonly model: string;
  /** What teamd assumes about the model (models.ts): window, maximum output, thinking. */
  readonly info: ModelInfo;
  /** Usage and cost of every call this client made, per model. */
  readonly ledger: UsageLedger;
  readonly #clientOptions: ClientOptions;
  #client: Promise<Anthropic> | undefined;
  readonly #options: AnthropicModelOptions;
  readonly #backoff: BackoffOptions;
  readonly #policy: RetryPolicy;
  readonly #endpoint: ResolvedEndpoint;
  #rehearsal: TurnRehearsal | undefined;

  constructor(options: AnthropicModelOptions) {
    this.model = options.model;
    this.info = modelInfo(options.model, options.prices);
    this.#options = options;
    this.#backoff = { ...DEFAULT_BACKOFF, ...options.backoff };
    this.#policy = {
      maxRetries: options.maxRetries ?? DEFAULT_RETRY_POLICY.maxRetries,
      capMs: options.retryCapMs ?? DEFAULT_RETRY_POLICY.capMs,
    };
    this.ledger = new UsageLedger(options.prices);
    // the environment is read now, as when the client was built here, even though it is built later
    this.#endpoint = endpointOfOptions(options);
    const { apiKey, authToken, baseURL } = this.#endpoint;
    this.#clientOptions = {
      ...(authToken === undefined ? { apiKey } : { authToken }),
      baseURL,
      maxRetries: 0,
      timeout: options.timeoutMs ?? 600_000,
      ...(options.fetch ? { fetch: options.fetch } : {}),
    };
  }

  /** The SDK client, built on first use (the SDK module is loaded then). */
  get contextWindow(): number {
    return this.info.contextWindow;
  }

  /**
   * The SDK module, and undici behind the platform's fetch (loaded by the
   * first `Headers`): both on the first call's path; then the parser's tier
   * (fetch-parser-tier.ts), before the first connection.
   */
  async warm(): Promise<void> {
    await this.#sdkClient().then(
      () => void (new Headers(), fetchLoaded()),
      () => undefined, // the first call meets the same failure and reports it
    );
  }

  #sdkClient(): Promise<Anthropic> {
    this.#client ??= import('@anthropic-ai/sdk').then(({ default: Sdk }) => new Sdk(this.#clientOptions));
    return this.#client;
  }

  async *stream(request: ModelRequest): AsyncGenerator<ModelStreamEvent, void> {
    // the rehearsal runs through the platform's fetch: not with a fetch of the caller's
    if (this.#options.fetch === undefined && claimTurnRehearsal()) this.#armRehearsal(request);
    const call: CallState = {
      model: this.model,
      retries: 0,
      overloads: 0,
      streamErrors: 0,
      streaming: true,
      startedAt: Date.now(),
    };
    for (;;) {
      const end = yield* this.#attempt(request, call);
      if (end.status === 'empty' && call.streaming) {
        call.streaming = false; // nothing usable came: one request without streaming
        continue;
      }
      if (end.status !== 'failed' || end.toolStarted || !end.error.retryable)
        return yield* this.#finish(end, call.model);
      const delayMs = this.#prepareRetry(end, call);
      const refusal = retryRefusal(this.#policy, call.retries, Date.now() - call.startedAt, delayMs);
      if (refusal !== null) return yield* this.#finish(gaveUp(end, refusal), call.model);
      call.retries++;
      const notice = {
        attempt: call.retries,
        maxRetries: this.#policy.maxRetries,
        delayMs,
        error: end.error,
        model: call.model,
        ...(end.yielded ? { discarded: true as const } : {}),
      };
      notify(request, notice);
      yield { type: 'retry', notice };
      if (!(await sleep(delayMs, request.signal))) {
        return yield* this.#finish({ status: 'aborted', assembler: new MessageAssembler() }, call.model);
      }
    }
  }

  /** Starts the first turn's rehearsal once the first request is written (turn-rehearsal.ts). */
  #armRehearsal(request: ModelRequest): void {
    const credential = this.#endpoint.authToken === undefined ? { apiKey: 'rehearsal' } : { authToken: 'rehearsal' };
    const make = (baseURL: string): ModelClient =>
      new AnthropicModel({ ...pickDefined(this.#options), ...credential, baseURL, maxRetries: 0, timeoutMs: 10_000 });
    whileAnswerAwaited(() => (this.#rehearsal = startTurnRehearsal(make, request)));
  }

  /** Counts the failure, switches model or stops streaming when due; the wait before the next attempt. */
  #prepareRetry(end: Failed, call: CallState): number {
    call.overloads = end.error.kind === 'overloaded' ? call.overloads + 1 : 0;
    call.streamErrors = end.inStream ? call.streamErrors + 1 : 0;
    if (call.streamErrors >= STREAM_ERRORS_BEFORE_FALLBACK) call.streaming = false;
    if (this.#shouldFallBack(call.model, call.overloads)) {
      call.model = this.#options.fallbackModel!;
      call.overloads = 0;
      return 0; // another model has its own capacity: no reason to wait
    }
    return backoffDelay(call.retries + 1, end.retryAfterMs, this.#backoff);
  }

  #shouldFallBack(model: string, overloads: number): boolean {
    const fallback = this.#options.fallbackModel;
    return (
      fallback !== undefined && model !== fallback && overloads >= (this.#options.fallbackAfterOverloads ?? 3)
    );
  }

  async *#attempt(request: ModelRequest, call: CallState): AsyncGenerator<ModelStreamEvent, AttemptEnd> {
    const assembler = new MessageAssembler();
    const shown = { yielded: false, toolStarted: false };
    // Block starts, tool-input and thinking deltas are held until the attempt commits (text or a whole
    // block), so a stream cut before that is retried without any output; one cut after text is retried
    // too (the retry notice says the text is void) unless a tool_use went out, whose tool may be running.
    let held: ModelStreamEvent[] = [];
    try {
      for await (const raw of this.#rawEvents(request, call)) {
        for (const event of assembler.accept(raw)) {
          if (HELD.has(event.type)) {
            held.push(event);
            continue;
          }
          shown.yielded = true;
          if (event.type === 'tool_use') shown.toolStarted = true;
          yield* held;
          held = [];
          yield event;
        }
      }
    } catch (err) {
      if (request.signal.aborted) return { status: 'aborted', assembler };
      return { status: 'failed', assembler, ...shown, ...failureOf(err, this.#endpoint) };
    }
    if (request.signal.aborted) return { status: 'aborted', assembler };
    const judged = judgeStreamEnd(assembler);
    if (judged.kind === 'ok') {
      yield* held;
      return { status: 'ok', assembler, stopReason: judged.stopReason };
    }
    if (judged.kind === 'broken') return { status: 'failed', assembler, ...shown, error: judged.error };
    if (call.streaming) return { status: 'empty', assembler };
    const error = modelError('server', 'the endpoint answered without any content, streaming or not');
    return { status: 'failed', assembler, ...shown, error };
  }

  /** The raw events of one attempt: the SDK's stream, or a whole message replayed as one. */
  async *#rawEvents(request: ModelRequest, call: CallState): AsyncGenerator<WireStreamEvent> {
    const client = await this.#sdkClient();
    const params = this.#params(request, call.model);
    const options = {
      signal: request.signal,
      headers: request.agent === undefined ? {} : { [AGENT_HEADER]: request.agent },
    };
    if (call.streaming) {
      for await (const raw of await client.messages.create(params, options)) yield raw as WireStreamEvent;
      return;
    }
    const replay = replayMessage(await client.messages.create({ ...params, stream: false }, options));
    if (!replay.ok) throw new MalformedAnswer(replay.message);
    yield* replay.events;
  }

  #params(request: ModelRequest, model: string): Anthropic.MessageCreateParamsStreaming {
    const info = modelInfo(model, this.#options.prices);
    const limit = this.#options.maxTokens ?? request.maxTokens ?? info.maxOutputTokens;
    const maxTokens = Math.min(limit, request.maxTokens ?? limit);
    const wire = {
      model,
      max_tokens: maxTokens,
      ...thinkingParams(info, request.thinking ?? this.#options.thinking ?? {}, maxTokens),
      system: systemWithCache(request.system),
      messages: messagesWithCache(request.messages),
      ...(request.tools.length > 0 ? { tools: toolsWithCache(request.tools) } : {}),
      stream: true as const,
    };
    // teamd's block and tool types are the wire format; the SDK's are wider unions of the same shapes.
    return wire as unknown as Anthropic.MessageCreateParamsStreaming;
  }

  *#finish(end: AttemptEnd, model: string): Generator<ModelStreamEvent, void> {
    const { assembler } = end;
    const usage = assembler.usage;
    this.ledger.add(model, usage);
    yield { type: 'usage', usage };
    const message = assembler.message();
    if (end.status === 'failed') {
      yield { type: 'done', message, stopReason: 'error', usage, model, error: end.error };
      return;
    }
    const stopReason = end.status === 'ok' ? end.stopReason : 'aborted';
    if (stopReason !== 'tool_use') this.#rehearsal?.cancel(); // no next turn for it to make ready
    yield { type: 'done', message, stopReason, usage, model };
  }
}

/** Events that are no output yet: held until the attempt commits. */
const HELD = new Set<ModelStreamEvent['type']>(['message_start', 'block_start', 'input_json_delta', 'thinking_delta']);

/** What a rehearsal client keeps of the options: the model's settings, not the endpoint or the hooks. */
function pickDefined(o: AnthropicModelOptions): AnthropicModelOptions {
  const { model, maxTokens, thinking, prices } = o;
  return { model, ...(maxTokens === undefined ? {} : { maxTokens }), ...(thinking ? { thinking } : {}), ...(prices ? { prices } : {}) };
}

function notify(request: ModelRequest, notice: RetryNotice): void {
  try {
    request.onRetry?.(notice);
  } catch {
    // A broken listener must not turn a retry into a failed call.
  }
}
