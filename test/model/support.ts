import {
  AnthropicModel,
  type AnthropicModelOptions,
  type ModelClient,
  type ModelRequest,
  type ModelStreamEvent,
} from '../../src/model/index.js';

export type Done = Extract<ModelStreamEvent, { type: 'done' }>;

/** A request with defaults; `text` becomes the single user message. */
export function requestOf(text: string, extra: Partial<ModelRequest> = {}): ModelRequest {
  return {
    system: 'You are a test.',
    messages: [{ role: 'user', content: text }],
    tools: [],
    maxTokens: 1024,
    signal: new AbortController().signal,
    ...extra,
  };
}

/** Drains a stream; checks it ends with exactly one `done`, last. */
export async function collect(
  client: ModelClient,
  request: ModelRequest,
): Promise<{ events: ModelStreamEvent[]; done: Done }> {
  const events: ModelStreamEvent[] = [];
  for await (const event of client.stream(request)) events.push(event);
  const dones = events.filter((e) => e.type === 'done');
  if (dones.length !== 1 || events[events.length - 1]!.type !== 'done') {
    throw new Error(`expected exactly one done event, last; got ${events.map((e) => e.type).join(',')}`);
  }
  return { events, done: dones[0] as Done };
}

export const textOf = (events: ModelStreamEvent[]): string =>
  events.map((e) => (e.type === 'text_delta' ? e.text : '')).join('');

export const tools = [
  {
    name: 'write_file',
    description: 'Write a file',
    input_schema: { type: 'object', properties: { path: { type: 'string' } } },
  },
  {
    name: 'bash',
    description: 'Run a command',
    input_schema: { type: 'object', properties: { command: { type: 'string' } } },
  },
];

/** Tiny waits so retry tests stay fast. */
export const FAST_BACKOFF = { baseDelayMs: 2, maxDelayMs: 10, maxRetryAfterMs: 1000 };

/** A real SDK client on the fake server at `baseURL`, retrying with `FAST_BACKOFF`. */
export const clientOn = (baseURL: string, extra: Partial<AnthropicModelOptions> = {}): AnthropicModel =>
  new AnthropicModel({ model: 'claude-sonnet-5-5', apiKey: 'test-key', baseURL, backoff: FAST_BACKOFF, ...extra });
