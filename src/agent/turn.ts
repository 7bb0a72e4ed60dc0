/**
 * One model turn: stream the model's answer, start each tool the moment its
 * tool_use block is complete, record the assistant message, and collect the
 * tool results. Events of the stream and of the running tools are merged into
 * one ordered stream for the loop to yield.
 */
import type {
  ConversationMessage,
  ModelClient,
  ModelStreamEvent,
  RetryNotice,
  ThinkingOptions,
  ToolDefinition,
  ToolResultBlock,
} from '../model/types.js';
import { emptyUsage } from '../model/types.js';
import { EventChannel } from './event-channel.js';
import type { EventBody, StampEvent } from './events.js';
import { ToolExecutor, type ExecutorEnv } from './executor.js';
import { rehearseTools } from './rehearse-tools.js';
import { toolUsesOf } from './history.js';
import type { AgentEvent, StreamDelta } from './types.js';

export type ModelDone = Extract<ModelStreamEvent, { type: 'done' }>;

export interface TurnEnv {
  model: ModelClient;
  system: string;
  tools: ToolDefinition[];
  maxTokens: number | undefined;
  thinking: ThinkingOptions | undefined;
  agent: string;
  /** The conversation as it is now (a snapshot is sent). */
  history: () => ConversationMessage[];
  signal: AbortSignal;
  /** Aborts the whole run (the consumer stopped listening mid-turn). */
  abortRun: () => void;
  stamp: StampEvent;
  executor: Omit<ExecutorEnv, 'emit'>;
  /** Appends the assistant message to the history; the event to emit, if anything was added. */
  recordAssistant: (done: ModelDone) => EventBody | null;
}

export interface TurnOutcome {
  done: ModelDone;
  results: ToolResultBlock[];
  apiMs: number;
}

function failedDone(env: TurnEnv, error: unknown): ModelDone {
  const aborted = env.signal.aborted;
  return {
    type: 'done',
    message: { role: 'assistant', content: [] },
    stopReason: aborted ? 'aborted' : 'error',
    usage: emptyUsage(),
    model: env.model.model,
    ...(aborted ? {} : { error: { kind: 'server', message: String(error), retryable: false } }),
  };
}

/** Claude Code's `system/api_retry`, one per retry (the notice comes through the stream, so across threads too). */
const apiRetry = (n: RetryNotice): EventBody => ({
  type: 'system',
  subtype: 'api_retry',
  attempt: n.attempt,
  max_retries: n.maxRetries,
  retry_delay_ms: Math.round(n.delayMs),
  error_status: n.error.status ?? null,
  error: `${n.error.kind}: ${n.error.message}`,
});

const streamDelta = (event: StreamDelta): EventBody => ({ type: 'stream_event', event });

/** The model's partial output as a stream_event, or null for events that are no piece of the answer. */
function deltaOf(event: ModelStreamEvent): StreamDelta | null {
  if (event.type === 'message_start') return { type: 'message_start', id: event.id, usage: event.usage };
  if (event.type === 'block_start') return { type: 'content_block_start', index: event.index, content_block: event.block };
  if (event.type === 'text_delta') return { type: 'text_delta', text: event.text, index: event.index };
  if (event.type === 'input_json_delta')
    return { type: 'input_json_delta', partial_json: event.partial_json, index: event.index };
  if (event.type === 'thinking_delta') return { type: 'thinking_delta', thinking: event.thinking, index: event.index };
  return null;
}

async function streamModel(
  env: TurnEnv,
  executor: ToolExecutor,
  push: (b: EventBody) => void,
): Promise<ModelDone> {
  const request = {
    system: env.system,
    messages: env.history(),
    tools: env.tools,
    maxTokens: env.maxTokens,
    thinking: env.thinking,
    signal: env.signal,
    agent: env.agent,
  };
  try {
    rehearseTools(env.executor.tools, env.executor);
    const stream = env.model.stream(request);
    for await (const event of stream) {
      if (event.type === 'done') return event;
      if (event.type === 'tool_use') executor.start(event.block);
      const delta = deltaOf(event);
      if (delta !== null) push(streamDelta(delta));
      if (event.type === 'retry') push(apiRetry(event.notice));
    }
    return failedDone(env, 'the model stream ended without a final message');
  } catch (error) {
    return failedDone(env, error instanceof Error ? error.message : error);
  }
}

async function playTurn(
  env: TurnEnv,
  executor: ToolExecutor,
  push: (b: EventBody) => void,
): Promise<TurnOutcome> {
  const startedAt = performance.now();
  const done = await streamModel(env, executor, push);
  const apiMs = performance.now() - startedAt;
  const assistant = env.recordAssistant(done);
  if (assistant) push(assistant);
  if (done.stopReason === 'error' || done.stopReason === 'aborted') executor.cancel();
  const results = await executor.finish(assistant ? toolUsesOf(done.message) : []);
  return { done, results, apiMs };
}

export async function* runTurn(env: TurnEnv): AsyncGenerator<AgentEvent, TurnOutcome> {
  const channel = new EventChannel<AgentEvent>();
  const push = (body: EventBody): void => channel.push(env.stamp(body));
  const executor = new ToolExecutor({ ...env.executor, emit: push }, env.signal);
  const work = playTurn(env, executor, push).finally(() => channel.close());
  let drained = false;
  try {
    yield* channel;
    drained = true;
  } finally {
    // the consumer left mid-turn: stop the model and the tools, and let them wind down
    if (!drained) {
      env.abortRun();
      await work.catch(() => undefined);
    }
  }
  return await work;
}
