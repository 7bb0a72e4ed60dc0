/**
 * `teamd mcp --http`: streamable HTTP on 127.0.0.1 only, behind a bearer
 * token made for this run (or `TEAMD_MCP_TOKEN`). Every request without the
 * token is refused 401 before the SDK sees it; a Host header that is not
 * loopback is refused 403 (a web page's DNS rebinding cannot reach it).
 * Stateless: each POST gets a fresh server and transport, so no session
 * outlives its request and a restart loses nothing (the files are the state).
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { buildMcpServer } from './server.js';
import type { McpScope } from './types.js';

export const MCP_PATH = '/mcp';

export interface HttpMcp {
  url: string;
  token: string;
  close(): Promise<void>;
}

export const newToken = (): string => randomBytes(24).toString('base64url');

/** True when `header` is `Bearer <token>` (compared in constant time). */
export function hasToken(header: string | undefined, token: string): boolean {
  const given = Buffer.from(/^Bearer (.+)$/.exec(header ?? '')?.[1] ?? '');
  const wanted = Buffer.from(token);
  return given.length === wanted.length && timingSafeEqual(given, wanted);
}

const LOOPBACK_HOST = /^(127\.0\.0\.1|localhost|\[::1\])(:\d+)?$/;

function refuse(res: ServerResponse, status: number, message: string): void {
  res.writeHead(status, { 'content-type': 'application/json', ...(status === 401 ? { 'www-authenticate': 'Bearer' } : {}) });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32001, message }, id: null }));
}

async function handle(scope: McpScope, token: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
  if (!hasToken(req.headers.authorization, token)) return refuse(res, 401, 'missing or wrong bearer token');
  if (!LOOPBACK_HOST.test(req.headers.host ?? '')) return refuse(res, 403, 'only loopback hosts');
  if (new URL(req.url ?? '/', 'http://127.0.0.1').pathname !== MCP_PATH) return refuse(res, 404, `not found: use ${MCP_PATH}`);
  if (req.method !== 'POST') return refuse(res, 405, 'stateless server: POST only');
  const server = buildMcpServer(scope);
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
  res.on('close', () => void transport.close().then(() => server.close()));
  await server.connect(transport);
  await transport.handleRequest(req, res);
}

/** Listens on 127.0.0.1:`port` (0: any free port). */
export async function serveHttp(scope: McpScope, port: number, token = newToken()): Promise<HttpMcp> {
  const http: Server = createServer((req, res) => {
    handle(scope, token, req, res).catch((err: unknown) => {
      if (!res.headersSent) refuse(res, 500, err instanceof Error ? err.message : String(err));
    });
  });
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(port, '127.0.0.1', () => resolve());
  });
  const { port: bound } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${bound}${MCP_PATH}`,
    token,
    close: () =>
      new Promise((resolve) => {
        http.close(() => resolve());
        http.closeAllConnections();
      }),
  };
}
