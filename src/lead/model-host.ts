import type { Worker } from 'node:worker_threads';
import type {
  ModelClient,
  ModelError,
  ModelRequest,
  ModelStreamEvent,
  ToolDefinition,
} from '../model/types.js';

/** A worker's `model_call`, its tools by reference (see `FromWorkerSchema`). */
export interface WorkerModelCall {
  callId: string;
  request: unknown;
  toolIds: number[];
  newTools: [number, unknown][];
  resetTools?: boolean;
}

/**
 * The lead's side of IpcModelClient: runs a worker's model calls on a model
 * the lead holds (a scripted model shared by the whole team) and streams the
 * events back. Abort requests from the worker abort the call here.
 */
export class ModelHost {
  private readonly running = new Map<string, { controller: AbortController; owner: string }>();
  /** Each worker's tool definitions by id (a new worker object starts empty). */
  private readonly toolsOf = new WeakMap<object, Map<number, ToolDefinition>>();

  /** `onEnd`: every call's end, with its error when it failed (the lead pauses the team on auth errors and outages). */
  constructor(
    private readonly model: ModelClient,
    private readonly onEnd?: (error: ModelError | undefined) => void,
  ) {}

  call(worker: Pick<Worker, 'postMessage'>, call: WorkerModelCall, owner = ''): void {
    const controller = new AbortController();
    this.running.set(call.callId, { controller, owner });
    const tools = this.resolveTools(worker, call);
    if (tools === null) {
      this.running.delete(call.callId);
      worker.postMessage({
        type: 'model_events',
        callId: call.callId,
        events: [this.failed('a tool reference the lead was never sent')],
      });
      return;
    }
    void this.pump(worker, call.callId, {
      ...(call.request as Omit<ModelRequest, 'signal' | 'tools'>),
      tools,
      signal: controller.signal,
    });
  }

  private failed(message: string): ModelStreamEvent {
    return {
      type: 'done',
      message: { role: 'assistant', content: [] },
      stopReason: 'error',
      usage: {
        input_tokens: 0,
        output_tokens: 0,
        cache_read_input_tokens: 0,
        cache_creation_input_tokens: 0,
      },
      model: this.model.model,
      error: { kind: 'server', message, retryable: false },
    };
  }

  /** The call's tools from the worker's references; null when one names nothing this worker sent. */
  private resolveTools(worker: object, call: WorkerModelCall): ToolDefinition[] | null {
    let known = this.toolsOf.get(worker);
    if (!known || call.resetTools) this.toolsOf.set(worker, (known = new Map()));
    for (const [id, definition] of call.newTools) known.set(id, definition as ToolDefinition);
    const tools = call.toolIds.map((id) => known.get(id));
    return tools.every((t) => t !== undefined) ? tools : null;
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

  private async pump(
    worker: Pick<Worker, 'postMessage'>,
    callId: string,
    request: ModelRequest,
  ): Promise<void> {
    const batch = new EventBatch((events) => worker.postMessage({ type: 'model_events', callId, events }));
    try {
      for await (const event of this.model.stream(request)) {
        batch.add(event, event.type === 'done');
        // Right behind the answer (a pause's stop follows the failed call's `done`, so the run ends on its error, not aborted).
        if (event.type === 'done' && !request.signal?.aborted) this.onEnd?.(event.error);
      }
    } catch (err) {
      // A ModelClient should not throw; if one does, the worker still gets its `done`.
      batch.add(this.failed((err as Error).message), true);
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
