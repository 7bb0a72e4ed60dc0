import { emptyUsage, type ToolDefinition, type Usage } from './types.js';

/** The sum of two usages (neither is changed). */
export function addUsage(a: Usage, b: Usage): Usage {
  return {
    input_tokens: a.input_tokens + b.input_tokens,
    output_tokens: a.output_tokens + b.output_tokens,
    cache_read_input_tokens: a.cache_read_input_tokens + b.cache_read_input_tokens,
    cache_creation_input_tokens: a.cache_creation_input_tokens + b.cache_creation_input_tokens,
  };
}

/** Wire usage as the API sends it: any field may be missing or null. */
export type WireUsage = Partial<Record<keyof Usage, number | null | undefined>>;

/** Overlays the fields `wire` carries on `base` (message_delta repeats only some of them). */
export function mergeWireUsage(base: Usage, wire: WireUsage | null | undefined): Usage {
  const next = { ...base };
  if (!wire) return next;
  for (const key of Object.keys(emptyUsage()) as (keyof Usage)[]) {
    const value = wire[key];
    if (typeof value === 'number') next[key] = value;
  }
  return next;
}

/** A full usage from a partial one, missing fields as 0. */
export const usageOf = (partial: Partial<Usage> = {}): Usage => ({ ...emptyUsage(), ...partial });

/** A rough token count (about four characters a token), for answers that carry no usage. */
export const estimateTokens = (text: string): number => Math.ceil(text.length / 4);

/** Each tool definition's JSON length, kept: a definition is one object per tool for the process. */
const definitionChars = new WeakMap<object, number>();

/** The tools as the JSON of their definitions would count, without writing that JSON for every request. */
export function estimateToolTokens(tools: readonly ToolDefinition[]): number {
  let chars = 2;
  for (const tool of tools) {
    let known = definitionChars.get(tool);
    if (known === undefined) definitionChars.set(tool, (known = JSON.stringify(tool).length + 1));
    chars += known;
  }
  return Math.ceil(chars / 4);
}
