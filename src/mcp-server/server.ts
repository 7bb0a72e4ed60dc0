/**
 * The MCP server: the SDK's `McpServer` with teamd's tools for one scope (a
 * person, or one agent under `--as`). Transports are the caller's (stdio.ts,
 * http.ts); the tools never touch them.
 */
import { createRequire } from 'node:module';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ListToolsRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { toolsFor } from './tool-list.js';
import type { McpScope, McpTool } from './types.js';

const { version } = createRequire(import.meta.url)('../../package.json') as { version: string };

/** The server name clients prefix tool names with (`mcp__teamd__task_create` in Claude Code). */
export const SERVER_NAME = 'teamd';

/** Array inputs past this many elements are refused before any tool runs. */
const MAX_INPUT_ELEMENTS = 10_000;

export function buildMcpServer(scope: McpScope): McpServer {
  const server = new McpServer({ name: SERVER_NAME, version }, { maxToolInputElements: MAX_INPUT_ELEMENTS });
  const tools = toolsFor(scope);
  for (const tool of tools) register(server, tool, scope);
  listCompactly(server, tools);
  return server;
}

/**
 * The tool list, as the SDK would list it less what costs tokens and tells
 * a model nothing: the `$schema` URL in every input schema, the default
 * `execution` block, `readOnlyHint: false`. Every request a client's model
 * makes carries these definitions. Set after the tools are registered (the
 * SDK installs its own list handler at the first `registerTool`; this one
 * replaces it through the SDK's public `setRequestHandler`).
 */
function listCompactly(server: McpServer, tools: readonly McpTool[]): void {
  const listed = tools.map((t) => ({
    name: t.name,
    description: t.description,
    inputSchema: compactSchema(t.input),
    ...(t.readOnly ? { annotations: { readOnlyHint: true } } : {}),
  }));
  server.server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: listed }));
}

function compactSchema(input: z.ZodObject): { type: 'object'; [key: string]: unknown } {
  const { $schema: _ignored, ...schema } = z.toJSONSchema(input, { io: 'input', target: 'draft-07' });
  return { ...schema, type: 'object' };
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
