/**
 * A Claude Code `result` line → teamd's `result` event, so the task is
 * finished, priced and shown exactly as a teamd run's would be.
 * - Cost: the CLI's `total_cost_usd` is the session's so far; a turn costs the
 *   difference from the previous result's (never below 0).
 * - Usage: the line's `usage` is the turn's, put under the session's model.
 * - Subtypes: the CLI's `error_max_turns` / `error_max_budget_usd` /
 *   `error_during_execution` are teamd's too; any other error subtype is
 *   `error_during_execution` with the CLI's subtype in `error`.
 */
import { randomUUID } from 'node:crypto';
import type { ResultEvent, ResultSubtype } from '../../../agent/types.js';
import type { CcResult } from './types.js';

const KNOWN: ResultSubtype[] = ['success', 'error_max_turns', 'error_max_budget_usd', 'error_during_execution'];

export interface ResultContext {
  sessionId: string;
  model: string;
  parentId: string | null;
  /** `total_cost_usd` of the session's previous result (0 before the first). */
  costBefore: number;
}

function subtypeOf(cc: CcResult): ResultSubtype {
  const known = KNOWN.find((s) => s === cc.subtype);
  if (known === 'success' && cc.is_error) return 'error_during_execution';
  return known ?? 'error_during_execution';
}

function errorOf(cc: CcResult, subtype: ResultSubtype): string | undefined {
  if (subtype === 'success') return undefined;
  const said = [...(cc.errors ?? []), cc.is_error && cc.result ? cc.result : ''].filter(Boolean).join('; ');
  const prefix = subtype === cc.subtype ? '' : `claude-code ${cc.subtype}`;
  return [prefix, said].filter(Boolean).join(': ').slice(0, 2000) || undefined;
}

const usageOf = ({ usage: u }: CcResult) => ({
  input_tokens: u.input_tokens,
  output_tokens: u.output_tokens,
  cache_read_input_tokens: u.cache_read_input_tokens,
  cache_creation_input_tokens: u.cache_creation_input_tokens,
});

export function mapResult(cc: CcResult, ctx: ResultContext): ResultEvent {
  const subtype = subtypeOf(cc);
  const error = errorOf(cc, subtype);
  return {
    type: 'result',
    subtype,
    is_error: subtype !== 'success',
    result: subtype === 'success' ? (cc.result ?? '') : '',
    duration_ms: cc.duration_ms,
    duration_api_ms: cc.duration_api_ms,
    num_turns: cc.num_turns,
    total_cost_usd: Math.max(0, cc.total_cost_usd - ctx.costBefore),
    usage: { [ctx.model]: usageOf(cc) },
    permission_denials: cc.permission_denials.map((d) => ({ tool_name: d.tool_name, tool_use_id: d.tool_use_id, tool_input: d.tool_input, message: 'denied' })),
    ...(error ? { error } : {}),
    session_id: ctx.sessionId,
    uuid: randomUUID(),
    parent_id: ctx.parentId,
    depth: 0,
  };
}
