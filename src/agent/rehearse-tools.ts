/**
 * What a tool's first call compiles, done while the first model request is
 * on the wire instead of between the answer and the next request: zod builds
 * an object shape's parser on its first parse, and a tool may warm its own
 * pure helpers (`Tool.rehearse`: bash compiles its command classifier). Runs
 * once per tool list, one tool per turn of the event loop (an unref'd
 * immediate each), so a socket or timer that is ready waits for at most one
 * step. Nothing here has an effect: parses of `{}` and pure functions only;
 * a step that throws is ignored (the real call meets the same problem).
 */
import type { AnyTool } from '../tools/types.js';

const rehearsed = new WeakSet<object>();

/** The steps for one list: parse `{}` with each input schema, then the tool's own rehearsal. */
function stepsOf(tools: Iterable<AnyTool>): (() => void)[] {
  return [...tools].map((tool) => () => {
    tool.inputSchema.safeParse({});
    tool.rehearse?.();
  });
}

/** Starts the rehearsal of `tools` (a no-op after the first time for the same list). */
export function rehearseTools(tools: Map<string, AnyTool>): void {
  if (rehearsed.has(tools)) return;
  rehearsed.add(tools);
  const steps = stepsOf(tools.values());
  const next = (): void => {
    const step = steps.shift();
    if (step === undefined) return;
    try {
      step();
    } catch {
      // the call itself reports it
    }
    setImmediate(next).unref();
  };
  setImmediate(next).unref();
}
