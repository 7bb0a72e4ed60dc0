/**
 * A tiny MCP server over stdio for tests, built with the SDK's server API:
 * `echo`, `add`, `fail` (a tool error),
 * `die` (exits the process) and `picture` (image and resource content). Writes its pid to $PID_FILE.
 */
import { appendFileSync } from 'node:fs';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

const PIXEL =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

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

server.registerTool('die', { description: 'Exits the server process.' }, () => process.exit(3));

server.registerTool('picture', { description: 'A 1x1 PNG and a text resource.' }, async () => ({
  content: [
    { type: 'text', text: 'here it is' },
    { type: 'image', data: PIXEL, mimeType: 'image/png' },
    { type: 'resource', resource: { uri: 'file:///notes.txt', mimeType: 'text/plain', text: 'the notes' } },
  ],
}));

if (process.env.PID_FILE) appendFileSync(process.env.PID_FILE, `${process.pid}\n`);
await server.connect(new StdioServerTransport());
