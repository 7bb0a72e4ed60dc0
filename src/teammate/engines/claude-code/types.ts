/**
 * Claude Code's stream-json protocol, as far as teamd reads it. Every line on
 * the CLI's stdout is one JSON object with a `type`; teamd acts on four of
 * them and keeps the rest in the transcript as they came:
 * - `system`/`init`: the session id, model, cwd and tools (first line of a session);
 * - `assistant` / `user`: messages of the conversation (`user` with
 *   `isReplay: true` is a stdin message echoed back when the CLI takes it in,
 *   under `--replay-user-messages`: that is how teamd knows mail arrived);
 * - `result`: the end of one turn. `total_cost_usd` counts the whole session so
 *   far; `usage` is this turn's.
 * On stdin teamd writes `user` lines (see stdin.ts).
 * The schemas are loose: fields teamd does not read may come and go between CLI versions.
 */
import { z } from 'zod';

const Count = z.number().int().nonnegative().catch(0);

export const CcUsageSchema = z.looseObject({
  input_tokens: Count.default(0),
  output_tokens: Count.default(0),
  cache_read_input_tokens: Count.default(0),
  cache_creation_input_tokens: Count.default(0),
});

const BlockSchema = z.looseObject({ type: z.string() });
const ContentSchema = z.union([z.string(), z.array(BlockSchema)]);

export const CcInitSchema = z.looseObject({
  type: z.literal('system'),
  subtype: z.literal('init'),
  session_id: z.string(),
  model: z.string().optional(),
  cwd: z.string().optional(),
  tools: z.array(z.string()).optional(),
});

export const CcMessageSchema = z.looseObject({
  type: z.enum(['user', 'assistant']),
  message: z.looseObject({ role: z.enum(['user', 'assistant']), content: ContentSchema }),
  parent_tool_use_id: z.string().nullable().optional(),
  isReplay: z.boolean().optional(),
});

export const CcResultSchema = z.looseObject({
  type: z.literal('result'),
  subtype: z.string(),
  is_error: z.boolean(),
  result: z.string().optional(),
  num_turns: Count.default(0),
  total_cost_usd: z.number().nonnegative().finite().catch(0).default(0),
  duration_ms: Count.default(0),
  duration_api_ms: Count.default(0),
  usage: CcUsageSchema.catch({ input_tokens: 0, output_tokens: 0, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 }).default({ input_tokens: 0, output_tokens: 0, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 }),
  permission_denials: z.array(z.looseObject({ tool_name: z.string(), tool_use_id: z.string(), tool_input: z.unknown() })).catch([]).default([]),
  /** Error texts of an error result (some versions). */
  errors: z.array(z.string()).optional(),
  session_id: z.string().optional(),
});

export type CcInit = z.infer<typeof CcInitSchema>;
export type CcMessage = z.infer<typeof CcMessageSchema>;
export type CcResult = z.infer<typeof CcResultSchema>;

/** One stdout line, read: an event teamd acts on, another event (kept as it is), or a line that is not an event. */
export type CcLine =
  | { kind: 'init'; event: CcInit; raw: Record<string, unknown> }
  | { kind: 'message'; event: CcMessage; raw: Record<string, unknown> }
  | { kind: 'result'; event: CcResult; raw: Record<string, unknown> }
  | { kind: 'other'; raw: Record<string, unknown> }
  | { kind: 'junk'; problem: string };
