/**
 * The MCP server: the SDK's `McpServer` with teamd's tools for one scope (a
 * person, or one agent under `--as`). Transports are the caller's (stdio.ts,
 * http.ts); the tools never touch them.
 */
import { createRequire } from 'node:module';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { toolsFor } from './tool-list.js';
import type { McpScope, McpTool } from './types.js';

const { version } = createRequire(import.meta.url)('../../package.json') as { version: string };

/** The server name clients prefix tool names with (`mcp__teamd__task_create` in Claude Code). */
export const SERVER_NAME = 'teamd';

/** Array inputs past this many elements are refused before any tool runs. */
const MAX_INPUT_ELEMENTS = 10_000;

export function buildMcpServer(scope: McpScope): McpServer {
  const server = new McpServer({ name: SERVER_NAME, version }, { maxToolInputElements: MAX_INPUT_ELEMENTS });
  for (const tool of toolsFor(scope)) register(server, tool, scope);
  return server;
}

function register(server: McpServer, tool: McpTool, scope: McpScope): void {
  server.registerTool(
    tool.name,
    { description: tool.description, inputSchema: tool.input, annotations: { readOnlyHint: tool.readOnly === true } },
    async (args, extra) => callTool(tool, args, scope, extra.signal),
  );
}

/** Runs a tool; a refusal or a thrown error is an MCP tool error (`isError: true`), never a protocol error. */
async function callTool(tool: McpTool, args: unknown, scope: McpScope, signal: AbortSignal): Promise<CallToolResult> {
  try {
    const reply = await tool.run(args as never, scope, signal);
    return reply.ok ? { content: [{ type: 'text', text: reply.text }] } : errorResult(reply.error);
  } catch (err) {
    return errorResult(err instanceof Error ? err.message : String(err));
  }
}

const errorResult = (text: string): CallToolResult => ({ content: [{ type: 'text', text }], isError: true });
