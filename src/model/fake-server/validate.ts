/**
 * The request checks the real Messages API makes that a client bug could
 * trip: shape, role order, tool_use/tool_result pairing, tool names, empty
 * text, cache breakpoints. Returns the API-style message of the first problem.
 * `role: "system"` messages (Claude Code sends them mid-conversation) stand
 * outside the user/assistant alternation: the checks look through them.
 */
import type { z } from 'zod';
import type { LooseBlock, LooseMessage } from '../scripted/conversation.js';
import { RequestSchema } from './request-schema.js';
import { thinkingKept } from './thinking-check.js';
import type { MessagesRequestBody } from './types.js';

export type Validation = { ok: true; body: MessagesRequestBody } | { ok: false; message: string };

export function validateRequest(raw: unknown): Validation {
  const parsed = RequestSchema.safeParse(raw);
  if (!parsed.success) return { ok: false, message: issueMessage(parsed.error.issues[0]!) };
  const body = parsed.data as MessagesRequestBody;
  for (const check of CHECKS) {
    const message = check(body);
    if (message) return { ok: false, message };
  }
  return { ok: true, body };
}

type Issue = z.core.$ZodIssue;

/** `path: message`; for a union (string or blocks), the branch that got furthest names the field. */
function issueMessage(issue: Issue, prefix: PropertyKey[] = []): string {
  const path = [...prefix, ...issue.path];
  if (issue.code === 'invalid_union' && issue.errors.length > 0) {
    const deepest = issue.errors
      .map((branch) => branch[0])
      .filter((i): i is Issue => i !== undefined)
      .sort((a, b) => b.path.length - a.path.length)[0];
    if (deepest && deepest.path.length > 0) return issueMessage(deepest, path);
  }
  const missing = issue.code === 'invalid_type' && issue.message.includes('undefined');
  return `${path.map(String).join('.')}: ${missing ? 'Field required' : issue.message}`;
}

const blocksOf = (m: LooseMessage): readonly LooseBlock[] =>
  typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : m.content;
const idsOf = (m: LooseMessage | undefined, type: string, key: string): string[] =>
  m
    ? blocksOf(m)
        .filter((b) => b.type === type)
        .map((b) => String(b[key]))
    : [];

/** The user and assistant messages with their index in `messages` (system messages are looked through). */
function turnsOf(body: MessagesRequestBody): { i: number; m: LooseMessage }[] {
  return body.messages.map((m, i) => ({ i, m })).filter(({ m }) => m.role !== 'system');
}

function roles(body: MessagesRequestBody): string | undefined {
  const turns = turnsOf(body);
  if (turns[0]?.m.role !== 'user') return 'messages: first message must use the "user" role';
  for (let k = 1; k < turns.length; k++) {
    const role = turns[k]!.m.role;
    if (role === turns[k - 1]!.m.role) {
      return `messages: roles must alternate between "user" and "assistant", but found multiple "${role}" roles in a row`;
    }
  }
  return undefined;
}

function toolUsesAnswered(body: MessagesRequestBody): string | undefined {
  const turns = turnsOf(body);
  for (const [k, { i, m }] of turns.entries()) {
    if (m.role !== 'assistant') continue;
    const answered = new Set(idsOf(turns[k + 1]?.m, 'tool_result', 'tool_use_id'));
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
  const turns = turnsOf(body);
  for (const [k, { i, m }] of turns.entries()) {
    if (m.role !== 'user') continue;
    const asked = new Set(idsOf(turns[k - 1]?.m, 'tool_use', 'id'));
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

const CHECKS = [roles, toolUsesAnswered, toolResultsExpected, toolNames, textsNonEmpty, cacheBreakpoints, thinkingKept];
