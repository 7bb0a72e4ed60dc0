/** `teamd mcp` over stdio: one client, for as long as it keeps stdin open. */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { buildMcpServer } from './server.js';
import type { McpScope } from './types.js';

/** Serves on stdin/stdout; resolves when the client closes stdin (or the transport closes). */
export async function serveStdio(scope: McpScope): Promise<void> {
  const server = buildMcpServer(scope);
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
    process.stdin.once('end', () => resolve());
  });
  await server.connect(transport);
  await closed;
  await server.close();
}
