/**
 * The request checks the real Messages API makes that a client bug could
 * trip: shape, role order, tool_use/tool_result pairing, tool names, empty
 * text, cache breakpoints. Returns the API-style message of the first problem.
 */
import { z } from 'zod';
import type { LooseBlock, LooseMessage } from '../scripted/conversation.js';
import type { MessagesRequestBody } from './types.js';

const BlockSchema = z.looseObject({ type: z.string() });
const RequestSchema = z.looseObject({
  model: z.string().min(1),
  max_tokens: z.number().int().positive(),
  messages: z
    .array(
      z.looseObject({
        // Claude Code sends `role: "system"` messages between turns; the checks below read the other two.
        role: z.enum(['user', 'assistant', 'system']),
        content: z.union([z.string(), z.array(BlockSchema)]),
      }),
    )
    .min(1),
  system: z.union([z.string(), z.array(BlockSchema)]).optional(),
  tools: z.array(z.looseObject({ name: z.string().min(1) })).optional(),
  stream: z.boolean().optional(),
});

export type Validation = { ok: true; body: MessagesRequestBody } | { ok: false; message: string };

export function validateRequest(raw: unknown): Validation {
  const parsed = RequestSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const missing = issue.code === 'invalid_type' && issue.message.includes('undefined');
    return { ok: false, message: `${issue.path.join('.')}: ${missing ? 'Field required' : issue.message}` };
  }
  const all = parsed.data as MessagesRequestBody;
  const body = { ...all, messages: all.messages.filter((m) => (m.role) !== 'system') };
  if (!body.messages.length) return { ok: false, message: 'messages: at least one user message is required' };
  for (const check of CHECKS) {
    const message = check(body);
    if (message) return { ok: false, message };
  }
  return { ok: true, body };
}

const blocksOf = (m: LooseMessage): readonly LooseBlock[] =>
  typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : m.content;
const idsOf = (m: LooseMessage | undefined, type: string, key: string): string[] =>
  m
    ? blocksOf(m)
        .filter((b) => b.type === type)
        .map((b) => String(b[key]))
    : [];

function roles(body: MessagesRequestBody): string | undefined {
  if (body.messages[0]!.role !== 'user') return 'messages: first message must use the "user" role';
  for (let i = 1; i < body.messages.length; i++) {
    const role = body.messages[i]!.role;
    if (role === body.messages[i - 1]!.role) {
      return `messages: roles must alternate between "user" and "assistant", but found multiple "${role}" roles in a row`;
    }
  }
  return undefined;
}

function toolUsesAnswered(body: MessagesRequestBody): string | undefined {
  for (const [i, m] of body.messages.entries()) {
    if (m.role !== 'assistant') continue;
    const answered = new Set(idsOf(body.messages[i + 1], 'tool_result', 'tool_use_id'));
    const missing = idsOf(m, 'tool_use', 'id').filter((id) => !answered.has(id));
    if (missing.length) {
      return (
        `messages.${i}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${missing.join(', ')}. ` +
        'Each `tool_use` block must have a corresponding `tool_result` block in the next message.'
      );
    }
  }
  return undefined;
}

function toolResultsExpected(body: MessagesRequestBody): string | undefined {
  for (const [i, m] of body.messages.entries()) {
    if (m.role !== 'user') continue;
    const asked = new Set(idsOf(body.messages[i - 1], 'tool_use', 'id'));
    for (const [j, b] of blocksOf(m).entries()) {
      if (b.type !== 'tool_result' || asked.has(String(b.tool_use_id))) continue;
      return (
        `messages.${i}.content.${j}: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${String(b.tool_use_id)}. ` +
        'Each `tool_result` block must have a corresponding `tool_use` block in the previous message.'
      );
    }
  }
  return undefined;
}

function toolNames(body: MessagesRequestBody): string | undefined {
  const known = new Set((body.tools ?? []).map((t) => t.name));
  for (const [i, m] of body.messages.entries()) {
    for (const [j, b] of blocksOf(m).entries()) {
      if (b.type === 'tool_use' && !known.has(String(b.name))) {
        return `messages.${i}.content.${j}: tool_use.name: tool "${String(b.name)}" is not defined in \`tools\``;
      }
    }
  }
  return undefined;
}

function textsNonEmpty(body: MessagesRequestBody): string | undefined {
  for (const [i, m] of body.messages.entries()) {
    if (typeof m.content === 'string' ? m.content === '' : m.content.length === 0) {
      return `messages.${i}: all messages must have non-empty content except for the optional final assistant message`;
    }
    const j = blocksOf(m).findIndex((b) => b.type === 'text' && b.text === '');
    if (j >= 0) return `messages.${i}.content.${j}.text: text content blocks must be non-empty`;
  }
  return undefined;
}

function cacheBreakpoints(body: MessagesRequestBody): string | undefined {
  const marked = (blocks: readonly LooseBlock[] | string | undefined): number =>
    Array.isArray(blocks) ? blocks.filter((b: LooseBlock) => b.cache_control !== undefined).length : 0;
  const found =
    marked(body.system) + marked(body.tools) + body.messages.reduce((n, m) => n + marked(m.content), 0);
  return found > 4 ? `A maximum of 4 blocks with cache_control may be provided. Found ${found}.` : undefined;
}

const CHECKS = [roles, toolUsesAnswered, toolResultsExpected, toolNames, textsNonEmpty, cacheBreakpoints];
