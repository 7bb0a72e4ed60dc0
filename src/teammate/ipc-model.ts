import { randomUUID } from 'node:crypto';
import type { MessagePort } from 'node:worker_threads';
import type { ModelClient, ModelRequest, ModelStreamEvent } from '../model/types.js';
import type { FromWorker } from './types.js';

type Sink = { push: (events: readonly ModelStreamEvent[]) => void };

/**
 * A ModelClient whose calls are answered by the lead. Used for scripted
 * models: one script serves the whole team, so its strictness (every step
 * used once, no unexpected call) holds across teammates, not per thread.
 */
export class IpcModelClient implements ModelClient {
  private readonly calls = new Map<string, Sink>();

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
    // Only data crosses the thread: the signal and callbacks stay here.
    const { signal: _signal, onRetry: _onRetry, ...wire } = request;
    this.post({ type: 'model_call', callId, request: wire });
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

  private post(message: FromWorker): void {
    this.port.postMessage(message);
  }
}
