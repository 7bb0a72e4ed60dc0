/**
 * `ScriptedModel`: a `ModelClient` that answers from a script (see schema.ts),
 * for the offline demo and for tests. It is strict: a call the script does not
 * answer ends with an `invalid_request` error naming the agent and the text,
 * and `assertComplete()` reports what the script expected but never got.
 */
import { z } from 'zod';
import {
  emptyUsage,
  type ContentBlock,
  type ModelClient,
  type ModelRequest,
  type ModelStreamEvent,
  type Usage,
} from '../types.js';
import { messagesWithCache, systemWithCache, toolsWithCache } from '../cache-control.js';
import { PromptCache } from '../fake-server/prompt-cache.js';
import type { MessagesRequestBody } from '../fake-server/types.js';
import { sleep } from '../retry.js';
import { estimateTokens, estimateToolTokens, usageOf } from '../usage.js';
import { modelError } from '../errors.js';
import { blockEvents } from './answer-events.js';
import { loadScript } from './load.js';
import { ScriptPlayer, type ResolvedAnswer, type ScriptReport } from './player.js';
import { parseOptions } from '../../config/options.js';
import { ScriptSchema, type Script, type ScriptInput } from './schema.js';
import { toolCallProblem } from './tool-check.js';

export const ScriptedModelOptionsSchema = z.strictObject({
  /** The name reported as `model` (default `scripted:<source>`). */
  model: z.string().min(1).optional(),
  /** Where the script came from, for error messages (default `script`). */
  source: z.string().min(1).optional(),
  /**
   * Refuse an answer that calls a tool the request did not offer, or with
   * input of the wrong shape: the call ends with an `invalid_request` error
   * naming the entry, so the run fails instead of playing on. On for a
   * script file (`fromFile`: `--model scripted:<path>`, the demo, the e2e
   * harness); off by default for a script built in code, since tests of how
   * an agent handles a bad tool call script exactly that.
   */
  checkTools: z.boolean().optional(),
  /**
   * Report input as the API's prompt cache would split it (cache reads and
   * writes at the request's breakpoints, as the fake server does), unless a
   * step scripts its own usage. Default on; off gives plain `input_tokens`.
   */
  promptCache: z.boolean().optional(),
});
export type ScriptedModelOptions = z.input<typeof ScriptedModelOptionsSchema>;

export class ScriptedModel implements ModelClient {
  readonly model: string;
  /** The matching state; the fake server can share it to answer HTTP calls from the same script. */
  readonly player: ScriptPlayer;
  readonly #checkTools: boolean;
  readonly #cache: PromptCache | undefined;

  /** Throws an `OptionsError` naming the field when `script` is invalid (a programmer error); use `fromFile` for user files. */
  constructor(script: Script | ScriptInput, given: ScriptedModelOptions = {}) {
    const options = parseOptions('ScriptedModel options', ScriptedModelOptionsSchema, given);
    const source = options.source ?? 'script';
    this.player = new ScriptPlayer(parseOptions('ScriptedModel script', ScriptSchema, script), source);
    this.model = options.model ?? `scripted:${source}`;
    this.#checkTools = options.checkTools ?? false;
    this.#cache = (options.promptCache ?? true) ? new PromptCache() : undefined;
  }

  /** Loads and validates a script file; rejects with a message naming the file and the field. */
  static async fromFile(
    file: string,
    options: Omit<ScriptedModelOptions, 'source'> = {},
  ): Promise<ScriptedModel> {
    const loaded = await loadScript(file);
    if (!loaded.ok) throw new Error(loaded.error);
    return new ScriptedModel(loaded.value, { checkTools: true, ...options, source: file });
  }

  report(): ScriptReport {
    return this.player.report();
  }

  assertComplete(): void {
    this.player.assertComplete();
  }

  async *stream(request: ModelRequest): AsyncGenerator<ModelStreamEvent, void> {
    // An already-aborted call uses up nothing of the script.
    if (request.signal.aborted) return yield* this.#end([], emptyUsage(), { aborted: true });
    const take = this.player.take(request);
    if (!take.ok) return yield* this.#end([], emptyUsage(), { error: take.error });
    const { answer } = take;
    const toolProblem =
      this.#checkTools &&
      toolCallProblem(answer.content, request.tools, `${this.player.source}: ${answer.source}`);
    if (toolProblem)
      return yield* this.#end([], emptyUsage(), { error: modelError('invalid_request', toolProblem) });
    if (answer.delayMs > 0) await sleep(answer.delayMs, request.signal);
    if (request.signal.aborted) return yield* this.#end([], emptyUsage(), { aborted: true });
    const usage = usageFor(request, answer, this.#cache);
    if (answer.error) return yield* this.#end([], usage, { error: answer.error });
    const done: ContentBlock[] = [];
    for (const [index, block] of answer.content.entries()) {
      for (const event of blockEvents(block, index)) {
        if (request.signal.aborted) return yield* this.#end(done, usage, { aborted: true });
        yield event;
      }
      done.push(block);
    }
    yield* this.#end(done, usage, { stopReason: answer.stopReason });
  }

  *#end(
    content: ContentBlock[],
    usage: Usage,
    how:
      | { error: NonNullable<ResolvedAnswer['error']> }
      | { aborted: true }
      | { stopReason: ResolvedAnswer['stopReason'] },
  ): Generator<ModelStreamEvent, void> {
    yield { type: 'usage', usage };
    const message = { role: 'assistant' as const, content };
    if ('error' in how)
      yield { type: 'done', message, stopReason: 'error', usage, model: this.model, error: how.error };
    else if ('aborted' in how)
      yield { type: 'done', message, stopReason: 'aborted', usage, model: this.model };
    else yield { type: 'done', message, stopReason: how.stopReason, usage, model: this.model };
  }
}

/** The script's usage, or an estimate from the request and answer sizes (split by the cache when there is one). */
function usageFor(request: ModelRequest, answer: ResolvedAnswer, cache: PromptCache | undefined): Usage {
  const output_tokens = estimateTokens(JSON.stringify(answer.content));
  const input = cache
    ? cache.usageFor(wireBodyOf(request))
    : {
        input_tokens:
          estimateTokens(request.system + JSON.stringify(request.messages)) + estimateToolTokens(request.tools),
      };
  return usageOf({ ...input, output_tokens, ...answer.usage });
}

/** The request as AnthropicModel would send it, breakpoints included (what the cache keys on). */
const wireBodyOf = (request: ModelRequest): MessagesRequestBody =>
  ({
    model: 'scripted',
    max_tokens: 1,
    system: systemWithCache(request.system),
    tools: toolsWithCache(request.tools),
    messages: messagesWithCache(request.messages),
  }) as unknown as MessagesRequestBody;
