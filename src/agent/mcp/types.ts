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
 * `${VAR}` and `${VAR:-default}` in commands, arguments, env values, urls and
 * headers are replaced from the environment. Each tool of a server becomes
 * `mcp__<server>__<tool>` (characters outside `A-Za-z0-9_-` become `_`). The
 * tools pass through the same permission gate as every tool and are never
 * read-only, so they ask unless a rule allows them (`mcp__server` allows a
 * whole server, `mcp__server__tool` one tool). A server that fails to start
 * (or is configured wrongly) is reported in `problems` and skipped.
 */
import { z } from 'zod';
import type { AnyTool } from '../../tools/types.js';

export const McpStdioServerSchema = z.strictObject({
  type: z.literal('stdio').optional(),
  command: z.string().min(1),
  args: z.array(z.string()).default([]),
  env: z.record(z.string(), z.string()).optional(),
  /** teamd extension: the server's working directory, relative to the project root (default: the root). */
  cwd: z.string().optional(),
});

export const McpHttpServerSchema = z.strictObject({
  type: z.literal('http'),
  url: z.string().min(1),
  headers: z.record(z.string(), z.string()).optional(),
});

export const McpServerConfigSchema = z.union([McpStdioServerSchema, McpHttpServerSchema]);
export type McpServerConfig = z.input<typeof McpServerConfigSchema>;
export type ParsedMcpServer = z.infer<typeof McpServerConfigSchema>;

/** The file: only `mcpServers` is read; other keys are left alone. Each server is checked on its own. */
export const McpConfigFileSchema = z.looseObject({
  mcpServers: z.record(z.string(), z.unknown()).default({}),
});

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
  close(): Promise<void>;
}
