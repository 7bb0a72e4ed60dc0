/**
 * A tool as the model reads it. `additionalProperties: false` (which zod
 * writes for every strict object) is left out of what is sent: the tool's
 * zod schema still refuses an unknown field with a message naming it, and
 * the flag cost about 7 tokens per object in every request. The definition
 * itself keeps it, so the in-process scripted model still refuses a script's
 * unknown field before the run (src/model/scripted/tool-check.ts).
 */
import type { ToolDefinition } from './types.js';

const sent = new WeakMap<ToolDefinition, ToolDefinition>();

export function wireTool(tool: ToolDefinition): ToolDefinition {
  let lean = sent.get(tool);
  if (lean === undefined) {
    lean = { ...tool, input_schema: withoutClosedFlag(tool.input_schema) as Record<string, unknown> };
    sent.set(tool, lean);
  }
  return lean;
}

function withoutClosedFlag(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withoutClosedFlag);
  if (node === null || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'additionalProperties' && value === false) continue;
    out[key] = withoutClosedFlag(value);
  }
  return out;
}
