import { randomUUID } from 'node:crypto';
import type { MessagePort } from 'node:worker_threads';
import type { ModelClient, ModelRequest, ModelStreamEvent, ToolDefinition } from '../model/types.js';
import type { FromWorker } from './types.js';

type Sink = { push: (events: readonly ModelStreamEvent[]) => void };

/**
 * A ModelClient whose calls are answered by the lead. Used for scripted
 * models: one script serves the whole team, so its strictness (every step
 * used once, no unexpected call) holds across teammates, not per thread.
 */
/** More definitions than this, and the lead is told to forget them all (a bound on what it keeps per worker). */
const MAX_TOOL_REFS = 1024;

export class IpcModelClient implements ModelClient {
  private readonly calls = new Map<string, Sink>();
  private toolIds = new WeakMap<ToolDefinition, number>();
  private nextToolId = 0;

  constructor(
    readonly model: string,
    private readonly port: Pick<MessagePort, 'postMessage'>,
  ) {}

  /** Feed the events of a `model_events` message from the lead to the call waiting for them. */
  receive(callId: string, events: readonly ModelStreamEvent[]): void {
    this.calls.get(callId)?.push(events);
  }

  async *stream(request: ModelRequest): AsyncIterable<ModelStreamEvent> {
    const callId = randomUUID();
    const queue: ModelStreamEvent[] = [];
    let wake: (() => void) | null = null;
    this.calls.set(callId, {
      push: (events) => {
        queue.push(...events);
        wake?.();
      },
    });
    const onAbort = () => this.post({ type: 'model_abort', callId });
    request.signal.addEventListener('abort', onAbort, { once: true });
    // Only data crosses the thread: the signal and callbacks stay here; tools go by reference.
    const { signal: _signal, onRetry: _onRetry, tools, ...wire } = request;
    this.post({ type: 'model_call', callId, request: wire, ...this.toolsByRef(tools) });
    try {
      for (;;) {
        while (queue.length === 0) await new Promise<void>((r) => (wake = r));
        const event = queue.shift()!;
        yield event;
        if (event.type === 'done') return;
      }
    } finally {
      request.signal.removeEventListener('abort', onAbort);
      this.calls.delete(callId);
    }
  }

  /** The tools as ids, with the definitions the lead has not been sent yet. */
  private toolsByRef(tools: readonly ToolDefinition[]): {
    toolIds: number[];
    newTools: [number, ToolDefinition][];
    resetTools?: true;
  } {
    const reset = this.nextToolId + tools.length > MAX_TOOL_REFS;
    if (reset) {
      this.toolIds = new WeakMap();
      this.nextToolId = 0;
    }
    const newTools: [number, ToolDefinition][] = [];
    const toolIds = tools.map((definition) => {
      let id = this.toolIds.get(definition);
      if (id === undefined) {
        this.toolIds.set(definition, (id = this.nextToolId++));
        newTools.push([id, definition]);
      }
      return id;
    });
    return reset ? { toolIds, newTools, resetTools: true } : { toolIds, newTools };
  }

  private post(message: FromWorker): void {
    this.port.postMessage(message);
  }
}
