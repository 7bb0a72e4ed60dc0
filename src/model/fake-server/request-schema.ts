/**
 * The shape of a Messages API request body as the real API accepts it from
 * its clients (teamd's SDK calls and the Claude Code CLI alike). Loose where
 * the API is loose (extra block fields, beta fields it knows), strict where a
 * client bug would be rejected: roles, the types of the fields Claude Code
 * sends (`thinking`, `context_management`, `output_config`, `metadata`).
 */
import { z } from 'zod';

const CacheControl = z.looseObject({ type: z.literal('ephemeral'), ttl: z.enum(['5m', '1h']).optional() });
/** Any content block; `cache_control` may sit on every kind (text, image, tool_use, tool_result, document). */
const Block = z.looseObject({ type: z.string().min(1), cache_control: CacheControl.nullish() });
const TextBlock = z.looseObject({
  type: z.literal('text'),
  text: z.string(),
  cache_control: CacheControl.nullish(),
});

const ConversationMessage = z.looseObject({
  role: z.enum(['user', 'assistant']),
  content: z.union([z.string(), z.array(Block)]),
});
/** A `role: "system"` message mid-conversation (Claude Code sends its environment and reminders so): text only. */
const SystemMessage = z.looseObject({
  role: z.literal('system'),
  content: z.union([z.string(), z.array(TextBlock)]),
});

/** Custom tools (`input_schema`) and server/built-in tools (`type`, e.g. `web_search_20250305`, `bash_20250124`). */
const Tool = z.looseObject({
  name: z.string().min(1),
  type: z.string().min(1).optional(),
  description: z.string().optional(),
  input_schema: z.looseObject({ type: z.literal('object') }).optional(),
  cache_control: CacheControl.nullish(),
  defer_loading: z.boolean().optional(),
});

const Thinking = z.union([
  z.looseObject({ type: z.literal('enabled'), budget_tokens: z.number().int().min(1024) }),
  z.looseObject({ type: z.literal('disabled') }),
  z.looseObject({ type: z.literal('adaptive'), display: z.string().optional() }),
]);
const ContextManagement = z.looseObject({
  edits: z.array(z.looseObject({ type: z.string().min(1) })).optional(),
});
const OutputConfig = z.looseObject({
  effort: z.enum(['low', 'medium', 'high', 'max']).optional(),
  format: z.looseObject({ type: z.string() }).nullish(),
});
/** `user_id` is opaque to the API: Claude Code puts a JSON string there. */
const Metadata = z.strictObject({ user_id: z.string().max(512).nullish() });
const ToolChoice = z.looseObject({
  type: z.enum(['auto', 'any', 'tool', 'none']),
  name: z.string().optional(),
});

export const RequestSchema = z.looseObject({
  model: z.string().min(1),
  max_tokens: z.number().int().positive(),
  messages: z.array(z.discriminatedUnion('role', [ConversationMessage, SystemMessage])).min(1),
  system: z.union([z.string(), z.array(TextBlock)]).optional(),
  tools: z.array(Tool).optional(),
  tool_choice: ToolChoice.optional(),
  stream: z.boolean().optional(),
  thinking: Thinking.optional(),
  context_management: ContextManagement.optional(),
  output_config: OutputConfig.optional(),
  metadata: Metadata.optional(),
  temperature: z.number().min(0).max(1).optional(),
  top_p: z.number().min(0).max(1).optional(),
  top_k: z.number().int().nonnegative().optional(),
  stop_sequences: z.array(z.string()).optional(),
});
