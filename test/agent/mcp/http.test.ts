import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { expandVariables } from '../../../src/agent/mcp/config.js';
import { loadMcpTools } from '../../../src/agent/mcp/load.js';
import { createToolContext } from '../../../src/tools/context.js';
import { tempDir } from '../support/workspace.js';

/** A Streamable HTTP MCP server on 127.0.0.1 that wants a bearer token. */
async function httpServer(token: string): Promise<{ url: string; close(): Promise<void> }> {
  const mcp = new McpServer({ name: 'http-test', version: '1.0.0' });
  mcp.registerTool(
    'shout',
    { description: 'Upper-cases text.', inputSchema: { text: z.string() } },
    async ({ text }) => ({
      content: [{ type: 'text', text: text.toUpperCase() }],
    }),
  );
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID() });
  await mcp.connect(transport);
  const server: Server = createServer((req, res) => {
    if (req.headers.authorization !== `Bearer ${token}`) {
      res.writeHead(401).end('unauthorized');
      return;
    }
    void transport.handleRequest(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
  return {
    url,
    close: async () => {
      await mcp.close();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

describe('MCP over HTTP', () => {
  test('headers get ${VAR} expanded; the tools are listed and called; a wrong token is a reported problem', async () => {
    await using dir = await tempDir();
    const server = await httpServer('sekrit');
    try {
      const servers = {
        docs: { type: 'http' as const, url: server.url, headers: { Authorization: 'Bearer ${MCP_TOKEN}' } },
        locked: {
          type: 'http' as const,
          url: server.url,
          headers: { Authorization: 'Bearer ${NO_SUCH_VAR:-wrong}' },
        },
      };
      const set = await loadMcpTools(dir.path, {
        servers,
        env: { MCP_TOKEN: 'sekrit' },
        connectTimeoutMs: 5_000,
      });
      try {
        expect(set.servers).toEqual(['docs']);
        expect(set.tools.map((t) => t.name)).toEqual(['mcp__docs__shout']);
        expect(set.problems).toHaveLength(1);
        expect(set.problems[0]).toMatch(/^MCP server "locked" failed to start/);
        const out = await set.tools[0]!.run({ text: 'hi' }, createToolContext({ root: dir.path }));
        expect(out).toMatchObject({ content: 'HI', isError: false });
      } finally {
        await set.close();
      }
    } finally {
      await server.close();
    }
  });

  test('expandVariables', () => {
    const env = { A: 'x', EMPTY: '' };
    expect(expandVariables('${A}-${B:-dflt}-${EMPTY:-e}-${C}', env)).toBe('x-dflt-e-');
  });
});
