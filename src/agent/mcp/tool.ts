/**
 * An MCP server's tool as a teamd tool, named `mcp__<server>__<tool>`. The
 * input is checked against the server's JSON Schema (as zod), and the model
 * is shown that schema as it is. Never read-only: the gate asks by default.
 */
import { z } from 'zod';
import { defineTool, type AnyTool } from '../../tools/types.js';
import { renderResult } from './content.js';
import type { McpToolInfo } from './connect.js';
import type { McpServerHandle } from './server-handle.js';

const safePart = (text: string): string => text.replace(/[^A-Za-z0-9_-]/g, '_');

/** `mcp__<server>__<tool>`, cut to 64 characters (the API's limit on tool names). */
export const mcpToolName = (server: string, tool: string): string =>
  `mcp__${safePart(server)}__${safePart(tool)}`.slice(0, 64);

function schemaOf(json: Record<string, unknown>): z.ZodType {
  try {
    return z.fromJSONSchema(json);
  } catch {
    return z.record(z.string(), z.unknown()); // a schema zod cannot read: the server still checks the input
  }
}

export function mcpTool(handle: McpServerHandle, info: McpToolInfo, callTimeoutMs: number): AnyTool {
  const server = handle.name;
  const { $schema: _drop, ...inputJsonSchema } = info.inputSchema;
  const name = mcpToolName(server, info.name);
  return defineTool({
    name,
    description: `${info.description ?? info.name}\n(tool "${info.name}" of the MCP server "${server}")`,
    inputSchema: schemaOf(inputJsonSchema),
    inputJsonSchema,
    isReadOnly: () => false,
    isConcurrencySafe: () => false,
    run: async (input, ctx) => {
      const client = await handle.current();
      if (!client.ok) return { content: `Error: ${client.error}`, isError: true };
      try {
        const args = (input ?? {}) as Record<string, unknown>;
        const result = await client.value.callTool({ name: info.name, arguments: args }, undefined, {
          signal: ctx.signal,
          timeout: callTimeoutMs,
        });
        return { ...renderResult(result), summary: `${name}` };
      } catch (error) {
        const died = handle.isDead ? ' (the server died; it is started again at the next call, once)' : '';
        return {
          content: `Error: the MCP server "${server}" failed: ${(error as Error).message}${died}`,
          isError: true,
        };
      }
    },
  });
}
