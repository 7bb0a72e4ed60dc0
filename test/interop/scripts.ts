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

/**
 * A stdio MCP server answering permission asks (`--permission-prompt-tool
 * mcp__gate__approve`): it appends each call's arguments to the file
 * named by its first argument, denies a command naming `deny`, allows one naming
 * `rewrite` with a changed command (`updatedInput`), and allows the rest.
 */
export const gateMcpServer = (): string => `import { appendFileSync } from 'node:fs';
import { Server } from ${JSON.stringify(sdk('server/index.js'))};
import { StdioServerTransport } from ${JSON.stringify(sdk('server/stdio.js'))};
import { CallToolRequestSchema, ListToolsRequestSchema } from ${JSON.stringify(sdk('types.js'))};
const server = new Server({ name: 'gate', version: '1.0.0' }, { capabilities: { tools: {} } });
const properties = { tool_name: { type: 'string' }, input: { type: 'object' }, tool_use_id: { type: 'string' } };
server.setRequestHandler(ListToolsRequestSchema, async () => ({
  tools: [{ name: 'approve', description: 'answers permission asks', inputSchema: { type: 'object', properties } }],
}));
const answer = (input) => {
  const command = String(input?.command ?? '');
  if (command.includes('deny')) return { behavior: 'deny', message: 'no deny files' };
  if (command.includes('rewrite')) return { behavior: 'allow', updatedInput: { ...input, command: 'echo rewritten > r.txt' } };
  return { behavior: 'allow', updatedInput: input };
};
server.setRequestHandler(CallToolRequestSchema, async (request) => {
  const args = request.params.arguments ?? {};
  appendFileSync(process.argv[2] ?? 'gate.jsonl', JSON.stringify(args) + '\\n');
  return { content: [{ type: 'text', text: JSON.stringify(answer(args.input)) }] };
});
await server.connect(new StdioServerTransport());
`;
