/**
 * `teamd mcp --http`: the real process on 127.0.0.1, the SDK's streamable
 * HTTP client with the printed token, and every request without it refused
 * 401 (no token, a wrong one, a near miss), before anything is read or written.
 */
import { readdirSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MailboxStore } from '../../src/store/mailbox/store.js';
import { spawnCli, waitForOutput, type CliRun } from '../e2e/support/cli.js';
import { makeMcpRepo, sessionOf, type McpRepo } from './support.js';

let repo: McpRepo;
let server: CliRun;
let url: string;
let token: string;

beforeAll(async () => {
  repo = makeMcpRepo();
  server = spawnCli(['mcp', '--http', '--dir', repo.dir]);
  await waitForOutput(server, /token: \S+/);
  url = /url: (\S+)/.exec(server.output())![1]!;
  token = /token: (\S+)/.exec(server.output())![1]!;
});
afterAll(async () => {
  server?.child.kill('SIGTERM');
  await server?.exited;
  repo?.cleanup();
});

const initialize = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });
const createTask = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'task_create', arguments: { subject: 'sneaky', id: 'sneaky' } } });

async function post(body: string, headers: Record<string, string>): Promise<Response> {
  return fetch(url, { method: 'POST', body, headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers } });
}

describe('teamd mcp --http', () => {
  it('prints a loopback URL and a token once', () => {
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    expect(token.length).toBeGreaterThanOrEqual(32);
    expect(server.output().match(/token: /g)).toHaveLength(1);
  });

  it('with the token, the SDK client creates a task in .tasks/', async () => {
    const client = new Client({ name: 'http-test', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
    await using s = sessionOf(client);
    expect(await s.json('task_create', { subject: 'over http', id: 'http' })).toMatchObject({ id: 'http', status: 'pending' });
    expect((await client.listTools()).tools.map((t) => t.name)).toContain('answer');
  });

  it('refuses every request without the right bearer token with 401, and writes nothing', async () => {
    const wrong: Record<string, string>[] = [{}, { authorization: '' }, { authorization: 'Bearer' }, { authorization: 'Bearer ' }, { authorization: `Bearer ${token}x` }, { authorization: `Bearer ${token.slice(0, -1)}` }, { authorization: `Basic ${token}` }, { authorization: token }, { 'x-api-key': token }];
    for (const headers of wrong) {
      for (const body of [initialize, createTask]) {
        const res = await post(body, headers);
        expect(res.status, JSON.stringify(headers)).toBe(401);
      }
    }
    const get = await fetch(url, { headers: { accept: 'text/event-stream' } });
    expect(get.status).toBe(401);
    expect(readdirSync(join(repo.dir, '.tasks'))).not.toContain('sneaky.json');
  });

  it('the SDK client without the token fails to connect', async () => {
    const client = new Client({ name: 'no-token', version: '1' });
    await expect(client.connect(new StreamableHTTPClientTransport(new URL(url)))).rejects.toThrow();
  });

  it('refuses a non-loopback Host header even with the token', async () => {
    // fetch drops a Host header it is given; node:http sends it as written.
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(url, { method: 'POST', headers: { host: 'evil.example', authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.end(initialize);
    });
    expect(status).toBe(403);
  });
});

describe('teamd mcp --http --as', () => {
  it('serves the agent\'s tools over HTTP, with TEAMD_MCP_TOKEN as the token', async () => {
    const own = spawnCli(['mcp', '--http', '--as', 'worker-1', '--dir', repo.dir], { env: { TEAMD_MCP_TOKEN: 'a-token-the-user-chose-0123456789' } });
    try {
      await waitForOutput(own, /token: \S+/);
      expect(own.output()).toContain('token: a-token-the-user-chose-0123456789');
      const at = new URL(/url: (\S+)/.exec(own.output())![1]!);
      const client = new Client({ name: 'http-as', version: '1' });
      await client.connect(new StreamableHTTPClientTransport(at, { requestInit: { headers: { authorization: 'Bearer a-token-the-user-chose-0123456789' } } }));
      await using s = sessionOf(client);
      const names = (await client.listTools()).tools.map((t) => t.name);
      expect(names).toContain('permission_prompt');
      expect(names).not.toContain('answer');
      expect(await s.json('send_message', { to: 'user', content: 'hello over http' })).toMatchObject({ to: 'user' });
      expect(await new MailboxStore(repo.dir).peek('user')).toMatchObject([{ from: 'worker-1', content: 'hello over http' }]);
    } finally {
      own.child.kill('SIGTERM');
      await own.exited;
    }
  });
});
