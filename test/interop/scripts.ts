/**
 * The scripts of our own that the interop repository uses, written into it at
 * `.claude/hooks/record.mjs` and `tools/echo-mcp.mjs`: a hook that appends its
 * stdin to $INTEROP_HOOK_LOG, and a stdio MCP server with one tool, `echo`.
 */
const sdk = (path: string): string => import.meta.resolve(`@modelcontextprotocol/sdk/${path}`);

export const RECORD_HOOK = `import { appendFileSync } from 'node:fs';
const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const text = Buffer.concat(chunks).toString('utf8');
let payload;
try { payload = JSON.parse(text); } catch { payload = { unparsed: text }; }
appendFileSync(process.env.INTEROP_HOOK_LOG ?? 'hooks.jsonl', JSON.stringify(payload) + '\\n');
`;

export const echoMcpServer = (): string => `import { McpServer } from ${JSON.stringify(sdk('server/mcp.js'))};
import { StdioServerTransport } from ${JSON.stringify(sdk('server/stdio.js'))};
import { z } from ${JSON.stringify(import.meta.resolve('zod'))};
const server = new McpServer({ name: 'echo', version: '1.0.0' });
server.registerTool('echo', { description: 'Echo the text back', inputSchema: { text: z.string() } },
  async ({ text }) => ({ content: [{ type: 'text', text: 'echo: ' + text }] }));
await server.connect(new StdioServerTransport());
`;
