/**
 * `AnthropicModel`: the Messages API through @anthropic-ai/sdk, streaming.
 * The SDK's own retries are off (maxRetries 0) so that this file decides: a
 * retry happens only while nothing of the attempt reached the caller, so the
 * caller never sees half an answer followed by a whole one.
 *
 * The SDK itself (1.5 MB of modules, with @opentelemetry/api) is imported on
 * the first call, not with this file: a teammate thread whose model is
 * scripted, or served by the lead, never pays for it.
 */
import type Anthropic from '@anthropic-ai/sdk';
import type { ClientOptions } from '@anthropic-ai/sdk';
import { APIError } from '@anthropic-ai/sdk/core/error';
import { messagesWithCache, systemWithCache, toolsWithCache } from './cache-control.js';
import { classifyError } from './classify.js';
import { modelError } from './errors.js';
import { MalformedToolInput, MessageAssembler } from './message-assembler.js';
import { modelInfo, type ModelInfo } from './models.js';
import { UsageLedger, type PriceOverrides } from './pricing.js';
import { backoffDelay, DEFAULT_BACKOFF, retryAfterMs, sleep, type BackoffOptions } from './retry.js';
import { thinkingParams } from './thinking.js';
import type {
  ModelClient,
  ModelError,
  ModelRequest,
  ModelStreamEvent,
  RetryNotice,
  ThinkingOptions,
} from './types.js';
import type { WireStreamEvent } from './wire.js';

export interface AnthropicModelOptions {
  model: string;
  /** Default: `ANTHROPIC_API_KEY` (then the SDK's own credential chain). */
  apiKey?: string;
  /** Default: `ANTHROPIC_BASE_URL`, else the Anthropic API. */
  baseURL?: string;
  /** Retries per call (all models together). Default 6. */
  maxRetries?: number;
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

type AttemptEnd =
  | { status: 'ok' | 'aborted'; assembler: MessageAssembler }
  | {
      status: 'failed';
      assembler: MessageAssembler;
      error: ModelError;
      retryAfterMs?: number;
      yielded: boolean;
    };

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

  constructor(options: AnthropicModelOptions) {
    this.model = options.model;
    this.info = modelInfo(options.model, options.prices);
    this.#options = options;
    this.#backoff = { ...DEFAULT_BACKOFF, ...options.backoff };
    this.ledger = new UsageLedger(options.prices);
    // the environment is read now, as when the client was built here, even though it is built later
    this.#clientOptions = {
      apiKey: options.apiKey ?? process.env['ANTHROPIC_API_KEY'],
      baseURL: options.baseURL ?? process.env['ANTHROPIC_BASE_URL'],
      maxRetries: 0,
      timeout: options.timeoutMs ?? 600_000,
      ...(options.fetch ? { fetch: options.fetch } : {}),
    };
  }

  /** The SDK client, built on first use (the SDK module is loaded then). */
  get contextWindow(): number {
    return this.info.contextWindow;
  }

  #sdkClient(): Promise<Anthropic> {
    this.#client ??= import('@anthropic-ai/sdk').then(({ default: Sdk }) => new Sdk(this.#clientOptions));
    return this.#client;
  }

  async *stream(request: ModelRequest): AsyncGenerator<ModelStreamEvent, void> {
    let model = this.model;
    let retries = 0;
    let overloads = 0;
    for (;;) {
      const end = yield* this.#attempt(request, model);
      if (!this.#shouldRetry(end, retries)) return yield* this.#finish(end, model);
      retries++;
      overloads = end.error.kind === 'overloaded' ? overloads + 1 : 0;
      let delayMs = backoffDelay(retries, end.retryAfterMs, this.#backoff);
      if (this.#shouldFallBack(model, overloads)) {
        model = this.#options.fallbackModel!;
        overloads = 0;
        delayMs = 0; // another model has its own capacity: no reason to wait
      }
      notify(request, { attempt: retries, delayMs, error: end.error, model });
      if (!(await sleep(delayMs, request.signal))) {
        return yield* this.#finish({ status: 'aborted', assembler: new MessageAssembler() }, model);
      }
    }
  }

  #shouldRetry(end: AttemptEnd, retries: number): end is Extract<AttemptEnd, { status: 'failed' }> {
    if (end.status !== 'failed' || end.yielded || !end.error.retryable) return false;
    return retries < (this.#options.maxRetries ?? 6);
  }

  #shouldFallBack(model: string, overloads: number): boolean {
    const fallback = this.#options.fallbackModel;
    return (
      fallback !== undefined && model !== fallback && overloads >= (this.#options.fallbackAfterOverloads ?? 3)
    );
  }

  async *#attempt(request: ModelRequest, model: string): AsyncGenerator<ModelStreamEvent, AttemptEnd> {
    const assembler = new MessageAssembler();
    let yielded = false;
    try {
      const client = await this.#sdkClient();
      const stream = await client.messages.create(this.#params(request, model), {
        signal: request.signal,
        headers: request.agent === undefined ? {} : { [AGENT_HEADER]: request.agent },
      });
      for await (const raw of stream) {
        for (const event of assembler.accept(raw as WireStreamEvent)) {
          yielded = true;
          yield event;
        }
      }
    } catch (err) {
      if (request.signal.aborted) return { status: 'aborted', assembler };
      return { status: 'failed', assembler, yielded, ...failureOf(err) };
    }
    if (request.signal.aborted) return { status: 'aborted', assembler };
    if (assembler.complete && assembler.stopReason !== null) return { status: 'ok', assembler };
    const error = modelError('connection', 'the stream ended before message_stop');
    return { status: 'failed', assembler, yielded, error };
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
    const stopReason = end.status === 'aborted' ? 'aborted' : assembler.stopReason!;
    yield { type: 'done', message, stopReason, usage, model };
  }
}

function failureOf(err: unknown): { error: ModelError; retryAfterMs?: number } {
  if (err instanceof MalformedToolInput) return { error: modelError('server', err.message) };
  const error = classifyError(err);
  const wait = err instanceof APIError ? retryAfterMs(err.headers) : undefined;
  return wait === undefined ? { error } : { error, retryAfterMs: wait };
}

function notify(request: ModelRequest, notice: RetryNotice): void {
  try {
    request.onRetry?.(notice);
  } catch {
    // A broken listener must not turn a retry into a failed call.
  }
}
