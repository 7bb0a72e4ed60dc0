import type { Worker } from 'node:worker_threads';
import type { ModelClient, ModelRequest, ModelStreamEvent } from '../model/types.js';

/**
 * The lead's side of IpcModelClient: runs a worker's model calls on a model
 * the lead holds (a scripted model shared by the whole team) and streams the
 * events back. Abort requests from the worker abort the call here.
 */
export class ModelHost {
  private readonly running = new Map<string, { controller: AbortController; owner: string }>();

  constructor(private readonly model: ModelClient) {}

  call(worker: Pick<Worker, 'postMessage'>, callId: string, request: unknown, owner = ''): void {
    const controller = new AbortController();
    this.running.set(callId, { controller, owner });
    void this.pump(worker, callId, { ...(request as Omit<ModelRequest, 'signal'>), signal: controller.signal });
  }

  abort(callId: string): void {
    this.running.get(callId)?.controller.abort();
  }

  /** Aborts every call of one teammate (its worker died: the answers would never be read). */
  abortOwner(owner: string): void {
    for (const c of this.running.values()) if (c.owner === owner) c.controller.abort();
  }

  /** Aborts every call (the team is stopping). */
  abortAll(): void {
    for (const c of this.running.values()) c.controller.abort();
  }

  private async pump(worker: Pick<Worker, 'postMessage'>, callId: string, request: ModelRequest): Promise<void> {
    const batch = new EventBatch((events) => worker.postMessage({ type: 'model_events', callId, events }));
    try {
      for await (const event of this.model.stream(request)) batch.add(event, event.type === 'done');
    } catch (err) {
      // A ModelClient should not throw; if one does, the worker still gets its `done`.
      batch.add(
        {
          type: 'done',
          message: { role: 'assistant', content: [] },
          stopReason: 'error',
          usage: { input_tokens: 0, output_tokens: 0, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 },
          model: this.model.model,
          error: { kind: 'server', message: (err as Error).message, retryable: false },
        },
        true,
      );
    } finally {
      batch.flush();
      this.running.delete(callId);
    }
  }
}

/**
 * Stream events sent together: those produced in one turn of the event loop
 * cross the thread as one message (a scripted answer is one message, not six),
 * and `done` goes at once.
 */
class EventBatch {
  private events: ModelStreamEvent[] = [];
  private scheduled = false;

  constructor(private readonly send: (events: ModelStreamEvent[]) => void) {}

  add(event: ModelStreamEvent, now: boolean): void {
    this.events.push(event);
    if (now) this.flush();
    else if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(() => this.flush());
    }
  }

  flush(): void {
    this.scheduled = false;
    if (this.events.length === 0) return;
    const events = this.events;
    this.events = [];
    this.send(events);
  }
}
