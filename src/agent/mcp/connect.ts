/**
 * Starting one MCP server (a stdio child process, or an HTTP endpoint) and
 * listing its tools, within a time limit. A failure is a message naming the
 * server (with the end of its stderr), never a throw.
 */
import { resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { Outcome } from '../../store/types.js';
import type { ParsedMcpServer } from './types.js';

export interface McpToolInfo {
  name: string;
  description?: string;
  inputSchema: Record<string, unknown>;
}

export interface ConnectedServer {
  name: string;
  client: Client;
  tools: McpToolInfo[];
  /** The end of the server's stderr so far (stdio servers), for error reports. */
  stderr: { text: string };
}

const STDERR_TAIL = 1_000;

function transportFor(server: ParsedMcpServer, root: string, stderr: { text: string }): Transport {
  if (server.type !== 'stdio') {
    // the SSE transport sends requestInit's headers on its event stream and on every POST
    const init = server.headers === undefined ? {} : { requestInit: { headers: server.headers } };
    return server.type === 'sse'
      ? new SSEClientTransport(new URL(server.url), init)
      : new StreamableHTTPClientTransport(new URL(server.url), init);
  }
  const transport = new StdioClientTransport({
    command: server.command,
    args: server.args,
    env: { ...getDefaultEnvironment(), ...server.env },
    cwd: resolve(root, server.cwd ?? '.'),
    stderr: 'pipe',
  });
  // read stderr as it comes (a full pipe would block the server) and keep its end for error reports
  transport.stderr?.on(
    'data',
    (chunk: Buffer) => (stderr.text = (stderr.text + chunk.toString()).slice(-STDERR_TAIL)),
  );
  return transport;
}

async function listAllTools(client: Client, timeout: number): Promise<McpToolInfo[]> {
  const tools: McpToolInfo[] = [];
  let cursor: string | undefined;
  do {
    const page = await client.listTools(cursor === undefined ? {} : { cursor }, { timeout });
    tools.push(
      ...page.tools.map((t) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema })),
    );
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  return tools;
}

export async function connectServer(
  name: string,
  server: ParsedMcpServer,
  root: string,
  timeoutMs: number,
): Promise<Outcome<ConnectedServer>> {
  const stderr = { text: '' };
  const client = new Client({ name: 'teamd', version: '0.1.0' });
  try {
    await client.connect(transportFor(server, root, stderr), { timeout: timeoutMs });
    return { ok: true, value: { name, client, tools: await listAllTools(client, timeoutMs), stderr } };
  } catch (error) {
    await client.close().catch(() => undefined);
    const tail = stderr.text.trim() === '' ? '' : ` (stderr: ${stderr.text.trim()})`;
    return { ok: false, error: `MCP server "${name}" failed to start: ${(error as Error).message}${tail}` };
  }
}
