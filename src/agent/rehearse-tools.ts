/**
 * What a tool's first call compiles, done before it is needed instead of
 * between the first answer and the next request: zod builds an object
 * shape's parser on its first parse (the failing path and the succeeding one
 * apart), and the call's own checks compile their helpers (bash's classifier,
 * once for the concurrency check and once, with the call's place, in the
 * permission gate). A tool with a sample input (`Tool.rehearsalInput`) is
 * taken through the call's path — parse, concurrency check, the gate —
 * synchronously, before the first model request is built: a model that
 * answers at once (a local server) leaves no wait to run it in. Every other
 * tool only has `{}` parsed and its `Tool.rehearse` run, one tool per turn of
 * the event loop (an unref'd immediate each) once the request is on its way,
 * so a socket that is ready waits for at most one step. Nothing here has an
 * effect: parses, pure checks and the gate's verdict, thrown away; a step
 * that throws is ignored (the real call meets the same problem).
 */
import type { AnyTool } from '../tools/types.js';
import { placeOf } from './admission.js';
import type { ToolCallEnv } from './tool-call-types.js';

const rehearsed = new WeakSet<object>();

/** The call's path on the sample input: parse, concurrency check, the gate's verdict (dropped). */
function rehearseCall(tool: AnyTool, env: ToolCallEnv): void {
  const sample = tool.inputSchema.safeParse(tool.rehearsalInput);
  if (!sample.success) return;
  tool.isConcurrencySafe(sample.data);
  env.gate.check(tool, sample.data, placeOf(env));
}

function rehearseShape(tool: AnyTool): void {
  tool.inputSchema.safeParse({});
  tool.rehearse?.();
}

function attempt(step: () => void): void {
  try {
    step();
  } catch {
    // the call itself reports it
  }
}

/** Runs `steps` one per turn of the event loop. */
function inTurns(steps: (() => void)[]): void {
  const next = (): void => {
    const step = steps.shift();
    if (step === undefined) return;
    attempt(step);
    setImmediate(next).unref();
  };
  setImmediate(next).unref();
}

/** Rehearses the tools of `tools` (a no-op after the first time for the same list). */
export function rehearseTools(tools: Map<string, AnyTool>, env: ToolCallEnv): void {
  if (rehearsed.has(tools)) return;
  rehearsed.add(tools);
  const all = [...tools.values()];
  for (const tool of all.filter((t) => t.rehearsalInput !== undefined)) {
    attempt(() => rehearseCall(tool, env));
    attempt(() => tool.rehearse?.());
  }
  inTurns(all.filter((t) => t.rehearsalInput === undefined).map((t) => () => rehearseShape(t)));
}
