/**
 * What the tools cost a model on every request: their definitions as a
 * client hands them on (name, description, input schema: how Claude Code
 * passes MCP tools to the Messages API), counted the way the token ledger
 * counts the team's own tool schemas (`estimateToolTokens`).
 */
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { estimateToolTokens } from '../model/usage.js';

export function mcpSchemaTokens(tools: readonly Pick<Tool, 'name' | 'description' | 'inputSchema'>[]): number {
  return estimateToolTokens(tools.map((t) => ({ name: t.name, description: t.description ?? '', input_schema: t.inputSchema })));
}
