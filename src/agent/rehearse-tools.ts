/**
 * What a tool's first call compiles, done before the first model request is
 * built instead of between the first answer and the next request: zod builds
 * an object shape's parser on its first parse (the failing path and the
 * succeeding one are compiled apart), the tool's own checks run on a sample
 * input (`Tool.rehearsalInput`: bash's classifier twice, once for the
 * concurrency check and once, with the call's place, in the permission
 * gate), and a tool may warm its own pure helpers (`Tool.rehearse`). Once per
 * tool list, synchronously: a model that answers at once (a local server)
 * leaves no wait to run it in, and the first answer would pay for it.
 * Nothing here has an effect: parses, pure checks and the gate's verdict,
 * thrown away; a step that throws is ignored (the real call meets the same
 * problem).
 */
import type { AnyTool } from '../tools/types.js';
import { placeOf } from './admission.js';
import type { ToolCallEnv } from './tool-call-types.js';

const rehearsed = new WeakSet<object>();

function rehearseOne(tool: AnyTool, env: ToolCallEnv): void {
  const sample = tool.inputSchema.safeParse(tool.rehearsalInput ?? {});
  if (tool.rehearsalInput !== undefined && sample.success) {
    tool.isConcurrencySafe(sample.data);
    env.gate.check(tool, sample.data, placeOf(env));
  }
  tool.rehearse?.();
}

/** Rehearses every tool of `tools` (a no-op after the first time for the same list). */
export function rehearseTools(tools: Map<string, AnyTool>, env: ToolCallEnv): void {
  if (rehearsed.has(tools)) return;
  rehearsed.add(tools);
  for (const tool of tools.values()) {
    try {
      rehearseOne(tool, env);
    } catch {
      // the call itself reports it
    }
  }
}
