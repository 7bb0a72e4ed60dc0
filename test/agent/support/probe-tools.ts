/**
 * Small real tools for runtime tests: they record when they start and end, so
 * a test can prove overlap (a barrier every parallel call must reach) or
 * serialisation (no two exclusive calls active at once) without timing.
 */
import { z } from 'zod';
import { defineTool, type AnyTool, type ToolContext } from '../../../src/tools/types.js';

export type Timeline = string[];

/** Resolves when `n` callers have arrived, or false after `timeoutMs` / an abort. */
export function barrier(n: number, timeoutMs = 5_000): (signal: AbortSignal) => Promise<boolean> {
  let arrived = 0;
  const waiters: (() => void)[] = [];
  return (signal) => {
    arrived += 1;
    if (arrived >= n) waiters.splice(0).forEach((w) => w());
    if (arrived >= n) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), timeoutMs);
      signal.addEventListener('abort', () => resolve(false), { once: true });
      waiters.push(() => (clearTimeout(timer), resolve(true)));
    });
  };
}

const LabelInput = z.strictObject({ label: z.string() });

/** Concurrency-safe: every call waits at the barrier, so all of them finishing "together" proves they overlapped. */
export function probeTool(timeline: Timeline, meet: (signal: AbortSignal) => Promise<boolean>): AnyTool {
  return defineTool({
    name: 'probe',
    description: 'Looks at something (test tool).',
    inputSchema: LabelInput,
    isReadOnly: () => true,
    isConcurrencySafe: () => true,
    run: async ({ label }, ctx) => {
      timeline.push(`start ${label}`);
      const met = await meet(ctx.signal);
      timeline.push(`end ${label}`);
      return { content: met ? `probe ${label}: met the others` : `probe ${label}: waited alone` };
    },
  });
}

/** Not concurrency-safe: yields to the event loop while active, so an overlapping call would interleave. */
export function exclusiveTool(timeline: Timeline): AnyTool {
  return defineTool({
    name: 'exclusive',
    description: 'Changes something (test tool).',
    inputSchema: LabelInput,
    isReadOnly: () => false,
    isConcurrencySafe: () => false,
    run: async ({ label }) => {
      timeline.push(`start ${label}`);
      for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
      timeline.push(`end ${label}`);
      return { content: `exclusive ${label} done` };
    },
  });
}

/** Runs until aborted, then says so. */
export function waitForAbortTool(timeline: Timeline): AnyTool {
  return defineTool({
    name: 'wait_for_abort',
    description: 'Waits (test tool).',
    inputSchema: LabelInput,
    isReadOnly: () => true,
    isConcurrencySafe: () => true,
    run: async ({ label }, ctx: ToolContext) => {
      timeline.push(`start ${label}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 20_000);
        ctx.signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
      });
      timeline.push(ctx.signal.aborted ? `aborted ${label}` : `timed out ${label}`);
      return { content: `${label} finished` };
    },
  });
}

export const explodingTool: AnyTool = defineTool({
  name: 'explode',
  description: 'Fails while running (test tool).',
  inputSchema: z.strictObject({}),
  isReadOnly: () => true,
  isConcurrencySafe: () => true,
  run: async () => {
    throw new Error('the disk is on fire');
  },
});

export const countingTool: AnyTool = defineTool({
  name: 'count',
  description: 'Counts to a number (test tool).',
  inputSchema: z.strictObject({ to: z.number().int().positive() }),
  isReadOnly: () => true,
  isConcurrencySafe: () => true,
  run: async ({ to }) => ({ content: Array.from({ length: to }, (_, i) => i + 1).join(' ') }),
});

/** Calls `ctx.services.onCall(label)` while running: lets a test act (enqueue, interrupt) mid-run. */
export const callbackTool: AnyTool = defineTool({
  name: 'callback',
  description: 'Notifies the test (test tool).',
  inputSchema: LabelInput,
  isReadOnly: () => true,
  isConcurrencySafe: () => true,
  run: async ({ label }, ctx) => {
    const onCall = ctx.services['onCall'] as ((label: string) => void | Promise<void>) | undefined;
    await onCall?.(label);
    return { content: `callback ${label} done` };
  },
});
