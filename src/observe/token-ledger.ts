/**
 * The token ledger: per teammate and per task, what the model calls cost in
 * tokens — input, output, cache read, cache write — how much of the input came
 * from the prompt cache, and how much went to coordination rather than work.
 *
 * Coordination is what a lone agent would not send: the team tools' schemas,
 * the team part of the system prompt, mail (`<message …>` blocks and the
 * "You have new messages" prompt), idle and status messages, and team tool
 * calls with their results. It is counted in every request that carries it
 * (a schema re-sent 40 times costs 40 times, even read from the cache).
 * Token counts of parts are estimates (about four characters a token); the
 * totals are the API's usage.
 */
import type { ContentBlock, ConversationMessage, Usage } from '../model/types.js';
import { addUsage, estimateTokens, usageOf } from '../model/usage.js';
import { terminalSafeLine } from './terminal-safe.js';

/** One model call as the ledger sees it. */
export interface LedgerCall {
  agent: string;
  task: string;
  usage: Usage;
  /** Tokens of all tool schemas sent with the call. */
  toolSchemaTokens: number;
  /** Tokens of the call (prompt and answer) spent on coordination. */
  coordinationTokens: number;
}

/** What the ledger needs to know about the team, to tell coordination from work. */
export interface TeamFacts {
  /** Tool names that exist only for the team (task_list, task_write, send_message and their old names). */
  teamTools: ReadonlySet<string>;
  /** Schema tokens per tool name. */
  toolTokens: (name: string) => number;
  /** Tokens of the team part of an agent's system prompt. */
  teamPromptTokens: (agent: string) => number;
}

const MAIL = /<message id="|^You have new messages|<shutdown_request|<idle_notification|<status /;
const blocks = (m: ConversationMessage): ContentBlock[] =>
  typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : m.content;
const tokensOf = (block: ContentBlock): number => estimateTokens(JSON.stringify(block));

/** The coordination tokens in a list of messages: mail and status texts, team tool calls and their results. */
export function coordinationInMessages(
  messages: readonly ConversationMessage[],
  teamTools: ReadonlySet<string>,
): number {
  const teamUses = new Set<string>();
  let tokens = 0;
  for (const block of messages.flatMap(blocks)) {
    if (block.type === 'tool_use' && teamTools.has(block.name)) teamUses.add(block.id);
    const team =
      (block.type === 'text' && MAIL.test(block.text)) ||
      (block.type === 'tool_use' && teamUses.has(block.id)) ||
      (block.type === 'tool_result' && teamUses.has(block.tool_use_id));
    if (team) tokens += tokensOf(block);
  }
  return tokens;
}

/** One call's coordination: team schemas and prompt, mail in the prompt, team tool calls in the answer. */
export function coordinationOfCall(
  call: {
    agent: string;
    tools: readonly string[];
    prompt: readonly ConversationMessage[];
    answer: ConversationMessage;
  },
  facts: TeamFacts,
): { toolSchemaTokens: number; coordinationTokens: number } {
  const schemas = call.tools.reduce((n, name) => n + facts.toolTokens(name), 0);
  const teamSchemas = call.tools
    .filter((t) => facts.teamTools.has(t))
    .reduce((n, name) => n + facts.toolTokens(name), 0);
  const inMessages = coordinationInMessages([...call.prompt, call.answer], facts.teamTools);
  return {
    toolSchemaTokens: schemas,
    coordinationTokens: teamSchemas + facts.teamPromptTokens(call.agent) + inMessages,
  };
}

export interface LedgerRow {
  key: string;
  calls: number;
  usage: Usage;
  /** cache read / (input + cache read + cache write). */
  cacheShare: number;
  coordinationTokens: number;
  /** coordination / all tokens (input, output, cache read and write). */
  coordinationShare: number;
  /** Mean tool-schema tokens per call. */
  toolSchemaPerCall: number;
}

const allTokens = (u: Usage): number =>
  u.input_tokens + u.output_tokens + u.cache_read_input_tokens + u.cache_creation_input_tokens;
const share = (part: number, whole: number): number => (whole > 0 ? part / whole : 0);

function rowOf(key: string, calls: readonly LedgerCall[]): LedgerRow {
  const usage = calls.reduce((u, c) => addUsage(u, c.usage), usageOf());
  const coordination = calls.reduce((n, c) => n + c.coordinationTokens, 0);
  const prompt = usage.input_tokens + usage.cache_read_input_tokens + usage.cache_creation_input_tokens;
  return {
    key,
    calls: calls.length,
    usage,
    cacheShare: share(usage.cache_read_input_tokens, prompt),
    coordinationTokens: coordination,
    coordinationShare: share(coordination, allTokens(usage)),
    toolSchemaPerCall: share(
      calls.reduce((n, c) => n + c.toolSchemaTokens, 0),
      calls.length,
    ),
  };
}

/** Rows per teammate or per task, sorted by key, then a `total` row. */
export function ledgerRows(calls: readonly LedgerCall[], by: 'teammate' | 'task'): LedgerRow[] {
  const groups = new Map<string, LedgerCall[]>();
  for (const c of calls) {
    const key = by === 'teammate' ? c.agent : c.task;
    groups.set(key, [...(groups.get(key) ?? []), c]);
  }
  const rows = [...groups].sort(([a], [b]) => a.localeCompare(b)).map(([k, list]) => rowOf(k, list));
  return [...rows, rowOf('total', calls)];
}

export const LEDGER_COLUMNS = [
  'calls',
  'input',
  'output',
  'cache read',
  'cache write',
  'cached %',
  'coord %',
  'schema/call',
];

/** The rows as a plain-text table, first column `heading`. */
export function formatLedger(heading: string, rows: readonly LedgerRow[]): string[] {
  const pct = (v: number): string => `${(v * 100).toFixed(1)}%`;
  const cells = rows.map((r) => [
    terminalSafeLine(r.key),
    String(r.calls),
    String(r.usage.input_tokens),
    String(r.usage.output_tokens),
    String(r.usage.cache_read_input_tokens),
    String(r.usage.cache_creation_input_tokens),
    pct(r.cacheShare),
    pct(r.coordinationShare),
    String(Math.round(r.toolSchemaPerCall)),
  ]);
  const head = [heading, ...LEDGER_COLUMNS];
  const widths = head.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)));
  const line = (c: string[]): string =>
    c.map((v, i) => (i === 0 ? v.padEnd(widths[i]!) : v.padStart(widths[i]!))).join('  ');
  return [line(head), ...cells.map(line)];
}
