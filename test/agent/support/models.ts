/**
 * The two ways runtime tests reach a model: the `ScriptedModel` directly, and
 * the real `AnthropicModel` (the real SDK, real HTTP) against the fake
 * Messages API server playing the same script. The server validates every
 * request as the API does, so a broken history fails the test.
 */
import { AnthropicModel } from '../../../src/model/anthropic.js';
import { startFakeAnthropicServer } from '../../../src/model/fake-server/server.js';
import type { FakeAnthropicServer } from '../../../src/model/fake-server/types.js';
import { ScriptedModel } from '../../../src/model/scripted/scripted-model.js';
import type { ScriptInput } from '../../../src/model/scripted/schema.js';
import {
  emptyUsage,
  type ModelClient,
  type ModelRequest,
  type ModelStreamEvent,
} from '../../../src/model/types.js';

export type ModelKind = 'scripted' | 'fake-server';
export const MODEL_KINDS: ModelKind[] = ['scripted', 'fake-server'];

export interface ModelFixture extends AsyncDisposable {
  kind: ModelKind;
  model: ModelClient;
  /** The script being played (its report says which steps were used). */
  script: ScriptedModel;
  /** Only for `fake-server`. */
  server?: FakeAnthropicServer;
}

export const FAKE_MODEL_NAME = 'claude-sonnet-5';

export async function modelFixture(kind: ModelKind, script: ScriptInput): Promise<ModelFixture> {
  const scripted = new ScriptedModel(script, { model: FAKE_MODEL_NAME });
  if (kind === 'scripted')
    return { kind, model: scripted, script: scripted, [Symbol.asyncDispose]: async () => {} };
  const server = await startFakeAnthropicServer({ script: scripted });
  const model = new AnthropicModel({
    model: FAKE_MODEL_NAME,
    apiKey: 'test-key',
    baseURL: server.url,
    maxRetries: 0,
  });
  return { kind, model, script: scripted, server, [Symbol.asyncDispose]: () => server.close() };
}

/** Requests the fake server refused as invalid (a broken history shows up here). */
export const invalidRequests = (fixture: ModelFixture): string[] =>
  (fixture.server?.requests ?? [])
    .filter((r) => r.outcome === 'invalid')
    .map((r) => JSON.stringify(r.body?.messages));

/**
 * A scripted model whose stream stops after its first text delta (of its
 * first call only) until the call is aborted: "interrupted in the middle of a stream", deterministically.
 * (Against the fake server the `stall_stream` fault does the same over HTTP.)
 */
export class StallAfterFirstDelta implements ModelClient {
  private stalled = false;

  constructor(private readonly inner: ModelClient) {}

  get model(): string {
    return this.inner.model;
  }

  async *stream(request: ModelRequest): AsyncGenerator<ModelStreamEvent, void> {
    for await (const event of this.inner.stream(request)) {
      yield event;
      if (event.type !== 'text_delta' || this.stalled) continue;
      this.stalled = true;
      await new Promise<void>((resolve) =>
        request.signal.addEventListener('abort', () => resolve(), { once: true }),
      );
      yield {
        type: 'done',
        message: { role: 'assistant', content: [] },
        stopReason: 'aborted',
        usage: emptyUsage(),
        model: this.model,
      };
      return;
    }
  }
}

/**
 * Pauses the stream after each tool_use event until `entry` appears in the
 * timeline (a tool recording its start), or 5 s pass; then records
 * `stream resumed`. A runtime that waits for the whole message before starting
 * tools would show the resume first.
 */
export class HoldAfterToolUse implements ModelClient {
  constructor(
    private readonly inner: ModelClient,
    private readonly timeline: string[],
    private readonly entry: string,
  ) {}

  get model(): string {
    return this.inner.model;
  }

  async *stream(request: ModelRequest): AsyncGenerator<ModelStreamEvent, void> {
    for await (const event of this.inner.stream(request)) {
      yield event;
      if (event.type !== 'tool_use') continue;
      const deadline = Date.now() + 5_000;
      while (!this.timeline.includes(this.entry) && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 5));
      this.timeline.push('stream resumed');
    }
  }
}
