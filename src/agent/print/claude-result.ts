/** Claude Code's `result` event from teamd's: flat usage, `modelUsage` per model, `stop_reason`, `api_error_status`. */
import { costOf } from '../../model/pricing.js';
import { emptyUsage, type Usage } from '../../model/types.js';
import { claudeCodeToolName } from '../../tools/claude-names.js';
import type { ResultEvent } from '../types.js';
import type { ClaudeEvent } from './types.js';

function sum(usages: Usage[]): Usage {
  const total = emptyUsage();
  for (const u of usages) for (const key of Object.keys(total) as (keyof Usage)[]) total[key] += u[key];
  return total;
}

function modelUsage(result: ResultEvent): Record<string, Record<string, number>> {
  const entries = Object.entries(result.usage);
  return Object.fromEntries(
    entries.map(([model, u]) => [
      model,
      {
        inputTokens: u.input_tokens,
        outputTokens: u.output_tokens,
        cacheReadInputTokens: u.cache_read_input_tokens,
        cacheCreationInputTokens: u.cache_creation_input_tokens,
        webSearchRequests: 0,
        costUSD: entries.length === 1 ? result.total_cost_usd : costOf(model, u),
      },
    ]),
  );
}

export function claudeResult(result: ResultEvent, stopReason: string | null): ClaudeEvent {
  return {
    type: 'result',
    subtype: result.subtype,
    is_error: result.is_error,
    duration_ms: result.duration_ms,
    duration_api_ms: result.duration_api_ms,
    num_turns: result.num_turns,
    result: result.result,
    stop_reason: stopReason,
    session_id: result.session_id,
    total_cost_usd: result.total_cost_usd,
    usage: sum(Object.values(result.usage)),
    modelUsage: modelUsage(result),
    // Claude Code's entry: its tool name, no message (teamd's own result keeps it)
    permission_denials: result.permission_denials.map(({ message: _m, ...d }) => ({ ...d, tool_name: claudeCodeToolName(d.tool_name) })),
    api_error_status: result.model_error?.status ?? null,
    uuid: result.uuid,
    ...(result.error === undefined ? {} : { error: result.error }),
  };
}
