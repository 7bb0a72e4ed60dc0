/**
 * A tiny MCP server over stdio for tests, built with the SDK's server API:
 * `echo`, `add`, and `fail` (a tool error). Writes its pid to $PID_FILE.
 */
import { appendFileSync } from 'node:fs';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

const server = new McpServer({ name: 'echo-server', version: '1.0.0' });

server.registerTool(
  'echo',
  { description: 'Echoes the text back.', inputSchema: { text: z.string().describe('What to echo') } },
  async ({ text }) => ({ content: [{ type: 'text', text: `echo: ${text}` }] }),
);

server.registerTool(
  'add',
  { description: 'Adds two numbers.', inputSchema: { a: z.number(), b: z.number() } },
  async ({ a, b }) => ({ content: [{ type: 'text', text: String(a + b) }] }),
);

server.registerTool('fail', { description: 'Always fails.' }, async () => ({
  content: [{ type: 'text', text: 'the tracker is down' }],
  isError: true,
}));

if (process.env.PID_FILE) appendFileSync(process.env.PID_FILE, `${process.pid}\n`);
await server.connect(new StdioServerTransport());
