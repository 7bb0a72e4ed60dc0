/**
 * MCP servers, configured as Claude Code does in `.mcp.json` at the project
 * root:
 *
 * ```json
 * { "mcpServers": {
 *     "files": { "command": "npx", "args": ["-y", "some-mcp-server"], "env": { "TOKEN": "${TOKEN}" } },
 *     "tracker": { "type": "http", "url": "http://127.0.0.1:8080/mcp", "headers": { "Authorization": "Bearer ${TRACKER_TOKEN}" } } } }
 * ```
 *
 * Transports: `stdio` (also `"type": "local"` or no type), `http`
 * (Streamable HTTP) and `sse` (HTTP+SSE), as Claude Code accepts them.
 * `${VAR}` and `${VAR:-default}` in commands, arguments, env values, urls and
 * headers are replaced from the environment (an unset variable without a
 * default becomes "" and a warning). A key teamd does not know is a warning
 * naming the server and key; the server still loads. A server that dies is
 * started again once, at its next tool call; after a second death its tools
 * answer with an error naming it. Each tool of a server becomes
 * `mcp__<server>__<tool>` (characters outside `A-Za-z0-9_-` become `_`). The
 * tools pass through the same permission gate as every tool and are never
 * read-only, so they ask unless a rule allows them (`mcp__server` allows a
 * whole server, `mcp__server__tool` one tool). A server that fails to start
 * (or is configured wrongly) is reported in `problems` and skipped.
 */
import { z } from 'zod';
import type { AnyTool } from '../../tools/types.js';

/** A child process speaking MCP on stdin/stdout. Claude Code's `"type": "local"` (or no type) is this too. */
export const McpStdioServerSchema = z.object({
  type: z.enum(['stdio', 'local']).optional(),
  command: z.string().min(1),
  args: z.array(z.string()).default([]),
  env: z.record(z.string(), z.string()).optional(),
  /** teamd extension: the server's working directory, relative to the project root (default: the root). */
  cwd: z.string().optional(),
});

/** Streamable HTTP (`http`) or the older HTTP+SSE transport (`sse`). */
export const McpRemoteServerSchema = z.object({
  type: z.enum(['http', 'sse']),
  url: z.string().min(1),
  headers: z.record(z.string(), z.string()).optional(),
});

export const MCP_SERVER_KEYS = {
  stdio: ['type', 'command', 'args', 'env', 'cwd'],
  remote: ['type', 'url', 'headers'],
} as const;

/** What an embedding may pass as `McpLoadOptions.servers` (the same shapes as `.mcp.json`). */
export type McpServerConfig = z.input<typeof McpStdioServerSchema> | z.input<typeof McpRemoteServerSchema>;

/** A server after checking and `${VAR}` expansion: `local` and a missing type are `stdio`. */
export type ParsedMcpServer =
  | (Omit<z.infer<typeof McpStdioServerSchema>, 'type'> & { type: 'stdio' })
  | z.infer<typeof McpRemoteServerSchema>;

export interface McpLoadOptions {
  /** Only these servers (by name); all when absent. */
  only?: string[];
  /** Servers to use instead of reading `.mcp.json`. */
  servers?: Record<string, McpServerConfig>;
  /** Default `<root>/.mcp.json`. */
  configFile?: string;
  /** For starting a server and listing its tools; default 30 000. */
  connectTimeoutMs?: number;
  /** Per tool call; default 600 000. */
  callTimeoutMs?: number;
  /** Environment for `${VAR}` expansion; default process.env. */
  env?: Record<string, string | undefined>;
}

/** What `loadMcpTools` hands back; `close()` stops every server it started. */
export interface McpToolSet {
  tools: AnyTool[];
  /** Servers that started, by name. */
  servers: string[];
  /** One line per server that was skipped (bad config, failed to start), naming it. */
  problems: string[];
  /** What was ignored or guessed (unknown keys, unset variables), naming the server and field; the server still loads. */
  warnings: string[];
  close(): Promise<void>;
}
