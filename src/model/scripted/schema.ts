/**
 * The script format read by `ScriptedModel` and the fake Messages API server.
 *
 * A script answers model calls from two lists:
 * - `rules`: each matches calls by its conditions and answers up to `times`
 *   times (or `"always"`). Checked first, in file order: the first rule whose
 *   conditions all hold and that has answers left wins.
 * - `steps`: used once each, in order. When no rule wins, the earliest unused
 *   step whose conditions all hold answers (a step without conditions is
 *   simply "the next step"; steps for other agents are skipped, not used).
 * A call that neither list answers is an error (the model is strict).
 *
 * Conditions (all optional, all must hold):
 * - `agent`: the caller's agent name, exactly, or `/regex/flags`.
 * - `match`: a regex searched in the latest user message's text (its text
 *   blocks and its tool_result contents, joined by newlines).
 * - `conversation`: a regex searched in the first user message's text, so
 *   every turn of one task can be keyed by the task prompt.
 * - `turn`: how many assistant messages the conversation already holds.
 * - `afterTool`: the latest user message carries a result of this tool.
 * `flags` (e.g. `"i"`, `"s"`) applies to `match` and `conversation`.
 *
 * Answer: `content` (text, tool_use, thinking and redacted_thinking blocks;
 * a tool_use id, a thinking signature and redacted data are generated when
 * absent), and optionally `usage`, `delayMs` (honours abort),
 * `stop_reason`, or `error` to fail the call. Every string of the answer may
 * use the capture groups: `$1`…`$9` (and `${12}`) from `match` (from
 * `conversation` when the entry has no `match`), `${name}` for named groups
 * of either, `$0` for the whole match, `$$` for a dollar sign.
 */
import { z } from 'zod';

const NonNegativeInt = z.number().int().nonnegative();

export const ScriptBlockSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('text'), text: z.string() }),
  z.strictObject({
    type: z.literal('tool_use'),
    name: z.string().min(1),
    input: z.record(z.string(), z.unknown()).default({}),
    id: z.string().min(1).optional(),
  }),
  /** Extended thinking; signed when played (`signature` only to script a forged one). */
  z.strictObject({ type: z.literal('thinking'), thinking: z.string(), signature: z.string().optional() }),
  /** Redacted thinking; its sealed `data` is generated when absent. */
  z.strictObject({ type: z.literal('redacted_thinking'), data: z.string().optional() }),
]);

export const ScriptUsageSchema = z.strictObject({
  input_tokens: NonNegativeInt.optional(),
  output_tokens: NonNegativeInt.optional(),
  cache_read_input_tokens: NonNegativeInt.optional(),
  cache_creation_input_tokens: NonNegativeInt.optional(),
});

export const ScriptErrorSchema = z.strictObject({
  kind: z.enum([
    'rate_limit',
    'overloaded',
    'server',
    'connection',
    'prompt_too_long',
    'auth',
    'invalid_request',
  ]),
  message: z.string().optional(),
  /** An HTTP status (the fake server answers with it). */
  status: z.number().int().min(400).max(599).optional(),
});

const conditions = {
  /** A label shown in reports. */
  name: z.string().optional(),
  agent: z.string().min(1).optional(),
  match: z.string().optional(),
  conversation: z.string().optional(),
  flags: z
    .string()
    .regex(/^[imsu]*$/, 'only the flags i, m, s and u are allowed')
    .optional(),
  turn: NonNegativeInt.optional(),
  afterTool: z.string().min(1).optional(),
};

const answer = {
  content: z.array(ScriptBlockSchema).default([]),
  stop_reason: z.enum(['end_turn', 'tool_use', 'max_tokens', 'refusal']).optional(),
  usage: ScriptUsageSchema.optional(),
  delayMs: NonNegativeInt.optional(),
  error: ScriptErrorSchema.optional(),
};

type EntryShape = {
  content: unknown[];
  error?: unknown;
  stop_reason?: string;
  agent?: string;
  match?: string;
  conversation?: string;
  flags?: string;
};

function checkEntry(entry: EntryShape, ctx: z.RefinementCtx): void {
  if (entry.content.length === 0 && entry.error === undefined && entry.stop_reason === undefined) {
    ctx.addIssue({
      code: 'custom',
      path: ['content'],
      message: 'an answer needs content, an error, or a stop_reason',
    });
  }
  for (const key of ['match', 'conversation'] as const) {
    const problem = regexProblem(entry[key], entry.flags);
    if (problem) ctx.addIssue({ code: 'custom', path: [key], message: problem });
  }
  const agent = entry.agent ? agentRegexParts(entry.agent) : undefined;
  const problem = agent && regexProblem(agent.source, agent.flags);
  if (problem) ctx.addIssue({ code: 'custom', path: ['agent'], message: problem });
}

function regexProblem(source: string | undefined, flags: string | undefined): string | undefined {
  if (source === undefined) return undefined;
  try {
    new RegExp(source, flags);
    return undefined;
  } catch (err) {
    return `not a valid regular expression: ${(err as Error).message}`;
  }
}

/** `/worker-\d+/i` → its source and flags; a plain agent name → undefined. */
export function agentRegexParts(agent: string): { source: string; flags: string } | undefined {
  const parts = /^\/(.+)\/([imsu]*)$/.exec(agent);
  return parts ? { source: parts[1]!, flags: parts[2]! } : undefined;
}

export const ScriptStepSchema = z.strictObject({ ...conditions, ...answer }).superRefine(checkEntry);
export const ScriptRuleSchema = z
  .strictObject({
    ...conditions,
    /** How many calls this rule answers; default 1. */
    times: z.union([z.number().int().positive(), z.literal('always')]).default(1),
    ...answer,
  })
  .superRefine(checkEntry);

export const ScriptSchema = z.strictObject({
  $schema: z.string().optional(),
  description: z.string().optional(),
  /** The model a recording came from (informational). */
  model: z.string().optional(),
  steps: z.array(ScriptStepSchema).default([]),
  rules: z.array(ScriptRuleSchema).default([]),
});

export type Script = z.infer<typeof ScriptSchema>;
/** A script as written (defaults may be left out). */
export type ScriptInput = z.input<typeof ScriptSchema>;
export type ScriptStep = z.infer<typeof ScriptStepSchema>;
export type ScriptRule = z.infer<typeof ScriptRuleSchema>;
export type ScriptEntry = ScriptStep & { times?: ScriptRule['times'] };
export type ScriptBlock = z.infer<typeof ScriptBlockSchema>;

/** The script format as JSON Schema (for editors: `"$schema": "./script.schema.json"`). */
export const scriptJsonSchema = (): Record<string, unknown> => z.toJSONSchema(ScriptSchema, { io: 'input' });
