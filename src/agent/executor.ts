/**
 * Runs the tool calls of one model turn. A call is started the moment its
 * tool_use block is complete in the stream. Concurrency-safe calls run in
 * parallel; any other call waits for every earlier call and holds back every
 * later one. Results come back in the order the model gave the calls.
 *
 * Abort chain: the run's signal → this turn's sibling group → each call. A
 * bash call that fails aborts the group, so its still-running siblings end as
 * "cancelled"; an interrupt reaches the group through the run's signal.
 */
import type { ToolResultBlock, ToolUseBlock } from '../model/types.js';
import type { AnyTool } from '../tools/types.js';
import { linkedAbort, whenAborted, type LinkedAbort } from './abort.js';
import type { EventBody } from './events.js';
import { INTERRUPTED_RESULT } from './history.js';
import {
  executeCall,
  prepareCall,
  rejectedOutcome,
  type CallOutcome,
  type PreparedCall,
  type ToolCallEnv,
} from './tool-call.js';
import { SIBLING_BASH_FAILED, thrownError } from './tool-errors.js';

/** How long an aborted tool may take to wind down (kill its processes) before its result is given up on. */
const ABORT_GRACE_MS = 5_000;

export interface ExecutorEnv extends ToolCallEnv {
  tools: Map<string, AnyTool>;
  emit(body: EventBody): void;
}

type ReadyCall = Extract<PreparedCall, { kind: 'ready' }>;
const ignore = (): void => {};

/** A hook runner or gate that throws is a bug there; the model still gets a result. */
const thrownOutcome = (call: ReadyCall, error: unknown): CallOutcome => ({
  result: {
    type: 'tool_result',
    tool_use_id: call.block.id,
    content: thrownError(call.tool.name, error),
    is_error: true,
  },
  failed: true,
  summary: `${call.tool.name}: failed while running`,
});

export class ToolExecutor {
  private readonly outcomes = new Map<string, Promise<CallOutcome>>();
  private readonly group: LinkedAbort;
  /** Set when the group is cancelled by a failing sibling (otherwise an abort is an interrupt). */
  private cancelText: string | null = null;
  private lastExclusive: Promise<void> = Promise.resolve();
  private readonly scheduled: Promise<void>[] = [];

  constructor(
    private readonly env: ExecutorEnv,
    runSignal: AbortSignal,
  ) {
    this.group = linkedAbort(runSignal);
  }

  /** Schedules a call (once per id) as soon as its block is complete. */
  start(block: ToolUseBlock): void {
    if (this.outcomes.has(block.id)) return;
    const call = prepareCall(block, this.env.tools);
    const outcome =
      call.kind === 'rejected'
        ? Promise.resolve(this.report(call.block, call.tool, rejectedOutcome(call), performance.now()))
        : this.schedule(call);
    this.outcomes.set(block.id, outcome);
  }

  /** Stops every call still running or waiting; their results say `text`. */
  cancel(text: string = INTERRUPTED_RESULT): void {
    if (this.group.signal.aborted) return;
    this.cancelText = text;
    this.group.controller.abort(new Error(text));
  }

  /**
   * The results for `blocks` (the final assistant message's tool calls), in
   * their order. Starts any the stream did not announce, and waits for every
   * call started this turn, so no process outlives the turn.
   */
  async finish(blocks: ToolUseBlock[]): Promise<ToolResultBlock[]> {
    for (const block of blocks) this.start(block);
    await Promise.all([...this.outcomes.values()]);
    this.group.release();
    const results = blocks.map((block) => this.outcomes.get(block.id));
    return Promise.all(results.map(async (r) => (await r!).result));
  }

  private schedule(call: ReadyCall): Promise<CallOutcome> {
    const before = call.concurrencySafe ? this.lastExclusive : Promise.all(this.scheduled).then(ignore);
    const outcome = before.then(() => this.execute(call));
    const settled = outcome.then(ignore, ignore);
    if (!call.concurrencySafe) this.lastExclusive = settled;
    this.scheduled.push(settled);
    return outcome;
  }

  private async execute(call: ReadyCall): Promise<CallOutcome> {
    const startedAt = performance.now();
    if (this.group.signal.aborted) {
      return this.report(call.block, call.tool.name, this.cancelled(call.block), startedAt);
    }
    const own = linkedAbort(this.group.signal);
    try {
      const progress = (text: string): void =>
        this.env.emit({ type: 'progress', tool_use_id: call.block.id, tool: call.tool.name, text });
      const work = executeCall(call, this.env, own.signal, progress).catch((error: unknown) =>
        thrownOutcome(call, error),
      );
      let outcome = await settleOrAbort(work, own.signal);
      if (outcome === null) outcome = this.cancelled(call.block);
      else if (outcome.failed && call.tool.name === 'bash') this.cancel(SIBLING_BASH_FAILED);
      return this.report(call.block, call.tool.name, outcome, startedAt);
    } finally {
      own.release();
    }
  }

  private cancelled(block: ToolUseBlock): CallOutcome {
    const text = this.cancelText ?? INTERRUPTED_RESULT;
    return {
      result: { type: 'tool_result', tool_use_id: block.id, content: text, is_error: true },
      failed: false,
      summary: `${block.name}: ${text}`,
    };
  }

  private report(block: ToolUseBlock, tool: string, outcome: CallOutcome, startedAt: number): CallOutcome {
    this.env.emit({
      type: 'tool_use_summary',
      tool_use_id: block.id,
      tool,
      summary: outcome.summary,
      is_error: outcome.result.is_error ?? false,
      duration_ms: Math.round(performance.now() - startedAt),
    });
    return outcome;
  }
}

/**
 * The call's outcome, or null when the signal aborted before it finished. An
 * aborted call still gets a grace period to wind down (kill its process group).
 */
async function settleOrAbort(work: Promise<CallOutcome>, signal: AbortSignal): Promise<CallOutcome | null> {
  const first = await Promise.race([work, whenAborted(signal).then(() => null)]);
  if (first !== null) return first;
  await Promise.race([work.then(ignore, ignore), delay(ABORT_GRACE_MS)]);
  return null;
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
