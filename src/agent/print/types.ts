/**
 * `teamd agent -p` output in Claude Code's print-mode shapes, so a script
 * written for `claude -p --output-format stream-json` reads it unchanged.
 * The mapping from teamd's runtime events (src/agent/types.ts):
 *
 * - `system/init` → Claude Code's init: `cwd`, `session_id`, `tools` (Claude
 *   Code's names: `Bash`, `Read`, `mcp__server__tool`), `mcp_servers`
 *   (`{name, status}`), `model`, `permissionMode`, `apiKeySource`, `agents`,
 *   `slash_commands` (none), `output_style`, `uuid`; printed again (new
 *   uuid) before each later run, as Claude Code per stdin message.
 * - `assistant` → one line per content block, as Claude Code:
 *   `{type:'assistant', message:{id (the API's), type:'message', role, model,
 *   content: [that block], stop_reason: null, stop_sequence, usage (of
 *   message_start)}, parent_tool_use_id}`.
 * - `user` with tool results → `{type:'user', message, parent_tool_use_id,
 *   tool_use_result}`; the prompt itself is not echoed (as Claude Code).
 * - `stream_event` → only with `--include-partial-messages`, as the raw API
 *   events: `message_start`, `content_block_start|delta|stop` (each block's
 *   `assistant` line before its stop), `message_delta`, `message_stop`
 *   (./raw-stream.ts).
 * - `system/api_retry` as it is.
 * - `result` → flat `usage` (summed over models), `modelUsage` per model
 *   (camelCase, `costUSD`), `stop_reason`, `api_error_status`, `session_id`.
 * - teamd's own events: `system/notice|hook|retry|compact|queued_input` are
 *   printed as they are; `progress` and `tool_use_summary` are not (they are
 *   in the transcript).
 */
import type { PermissionMode } from '../permissions/types.js';

export type ClaudeEvent = Record<string, unknown> & { type: string };

export interface PrintOptions {
  /** Claude Code's `--include-partial-messages`. */
  includePartialMessages: boolean;
  permissionMode: PermissionMode;
  /** Where the key came from: `ANTHROPIC_API_KEY`, or `none` (scripted models, other credentials). */
  apiKeySource: string;
  /** The MCP servers configured (`.mcp.json`, `--mcp-config`): connected when one of its tools is there, else failed. */
  mcpServers: string[];
  /** The roles the `task` tool offers. */
  agents: string[];
  /** Claude Code's `--replay-user-messages`: each prompt from stdin is printed back (`isReplay: true`) before its run's events. */
  replayUserMessages?: boolean;
}
