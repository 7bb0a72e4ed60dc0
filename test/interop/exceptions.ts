/**
 * Differences between Claude Code and `teamd agent -p` that stay, each with
 * its reason (the same list as the table in docs/AGENT.md). A key is a
 * difference line of compare.ts; `*` matches anything.
 */
import type { Exception } from './compare.js';

const internal = 'Claude Code’s own state (its UI, plans, telemetry, sockets): teamd has no counterpart';

export const HOOK_EXCEPTIONS: readonly Exception[] = [
  {
    key: 'hook *.effort: missing in teamd',
    reason: 'the effort level of Claude Code’s model setting: teamd has none',
  },
  {
    key: 'hook *.prompt_id: missing in teamd',
    reason: 'Claude Code’s id of the prompt (not in its hooks reference)',
  },
  {
    key: 'hook PostToolUse(Bash).tool_response.bashEditDiff: missing in teamd',
    reason: 'Claude Code diffs the files a Bash command changed; teamd does not',
  },
  {
    key: 'hook Stop.session_crons: missing in teamd',
    reason: 'Claude Code’s session crons: teamd has .cron/ files instead',
  },
  {
    key: 'hook Stop.background_tasks: missing in teamd',
    reason: 'Claude Code’s background task list: not in its hooks reference',
  },
];

const INIT_INTERNAL = [
  'terminal_slash_commands',
  'claude_code_version',
  'capabilities',
  'analytics_disabled',
  'product_feedback_disabled',
  'served_by_anthropic',
  'sandbox_enabled',
  'memory_paths',
  'messaging_socket_path',
  'fast_mode_state',
  'fast_mode_disabled_reason',
  'per_turn_effort_active',
  'ultrathink_available',
  'ultrathink_typed_raises',
  'view_mode',
];
const RESULT_INTERNAL = [
  'terminal_reason',
  'fast_mode_state',
  'fast_mode_disabled_reason',
  'subagent_stats',
  'safety_stops',
  'ttft_ms',
  'ttft_stream_ms',
  'time_to_request_ms',
  'first_content_frame_ms',
  'queued_turn_count',
  'result_index',
  'model_usage_since_last_result',
];

export const EVENT_EXCEPTIONS: readonly Exception[] = [
  {
    key: 'event system/hook_*: not printed by teamd',
    reason:
      'Claude Code reports each SessionStart hook run as hook_started/hook_response; teamd reports hook feedback as system/hook',
  },
  ...INIT_INTERNAL.map((f) => ({ key: `event system/init.${f}: missing in teamd`, reason: internal })),
  ...RESULT_INTERNAL.map((f) => ({ key: `event result/*.${f}: missing in teamd`, reason: internal })),
  {
    key: 'event assistant.request_id: missing in teamd',
    reason: 'the model layer does not pass the API request id up',
  },
  { key: 'event assistant.tool_use_meta: missing in teamd', reason: internal },
  { key: 'event user.tool_result_meta: missing in teamd', reason: internal },
  {
    key: 'event user.tool_use_result.bashEditDiff: missing in teamd',
    reason: 'Claude Code diffs the files a Bash command changed; teamd does not',
  },
];
