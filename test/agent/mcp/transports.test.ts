import { writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { loadMcpConfig } from '../../../src/agent/mcp/config.js';
import { loadMcpTools } from '../../../src/agent/mcp/load.js';
import { createToolContext } from '../../../src/tools/context.js';
import { AgentRuntime } from '../../../src/agent/runtime.js';
import { invalidRequests, modelFixture } from '../support/models.js';
import { collect, tempDir } from '../support/workspace.js';

const SERVER = fileURLToPath(new URL('./support/echo-server.ts', import.meta.url));
const TSX = import.meta.resolve('tsx');
const FIXTURE = fileURLToPath(new URL('../../fixtures/claude-code/mcp/all-transports.json', import.meta.url));

/** An HTTP+SSE MCP server (the older transport) on 127.0.0.1 that wants a header. */
async function sseServer(header: string): Promise<{ url: string; close(): Promise<void> }> {
  const sessions = new Map<string, SSEServerTransport>();
  const servers: McpServer[] = [];
  const http: Server = createServer((req, res) => {
    if (req.headers['x-team'] !== header) return void res.writeHead(401).end('no header');
    if (req.method === 'GET') {
      const transport = new SSEServerTransport('/messages', res);
      sessions.set(transport.sessionId, transport);
      const mcp = new McpServer({ name: 'sse-test', version: '1.0.0' });
      mcp.registerTool('whisper', { inputSchema: { text: z.string() } }, async ({ text }) => ({
        content: [{ type: 'text', text: text.toLowerCase() }],
      }));
      servers.push(mcp);
      void mcp.connect(transport);
      return;
    }
    const id = new URL(req.url ?? '/', 'http://x').searchParams.get('sessionId') ?? '';
    const transport = sessions.get(id);
    if (!transport) return void res.writeHead(404).end('no session');
    void transport.handlePostMessage(req, res);
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(http.address() as AddressInfo).port}/sse`,
    close: async () => {
      await Promise.all(servers.map((s) => s.close()));
      http.closeAllConnections();
      await new Promise((resolve) => http.close(resolve));
    },
  };
}

const call = (set: Awaited<ReturnType<typeof loadMcpTools>>, name: string, input: unknown, cwd: string) =>
  set.tools.find((t) => t.name === name)!.run(input, createToolContext({ root: cwd }));

describe('.mcp.json as Claude Code accepts it', () => {
  test('"type": "sse" connects with its headers (expanded, with a default); an unknown key is a warning, not a drop', async () => {
    const server = await sseServer('teamd');
    await using dir = await tempDir();
    const config = {
      mcpServers: {
        events: {
          type: 'sse',
          url: server.url,
          headers: { 'X-Team': '${TEAM_HEADER:-teamd}' },
          description: 'the team event stream',
        },
      },
    };
    await writeFile(join(dir.path, '.mcp.json'), JSON.stringify(config));
    const set = await loadMcpTools(dir.path, { env: {} });
    try {
      expect(set.problems).toEqual([]);
      expect(set.warnings).toEqual([
        `${join(dir.path, '.mcp.json')}: mcpServers.events.description: unknown key, ignored`,
      ]);
      expect((await call(set, 'mcp__events__whisper', { text: 'QUIET' }, dir.path)).content).toBe('quiet');
    } finally {
      await set.close();
      await server.close();
    }
  });

  test('every transport of the fixture parses; errors name the server and the field', async () => {
    const { servers, problems, warnings } = await loadMcpConfig(FIXTURE, { TOKEN: 't', FIXTURE_DIR: '/srv' });
    expect(problems).toEqual([]);
    expect(Object.fromEntries([...servers].map(([n, s]) => [n, s.type]))).toEqual({
      files: 'stdio',
      'local-files': 'stdio',
      'stdio-typed': 'stdio',
      tracker: 'http',
      events: 'sse',
    });
    expect(servers.get('files')).toMatchObject({ args: ['/srv/server.js'], env: { TOKEN: 't' } });
    expect(servers.get('tracker')).toMatchObject({
      url: 'http://127.0.0.1:9/mcp',
      headers: { Authorization: 'Bearer none' },
    });
    expect(warnings.map((w) => w.slice(FIXTURE.length + 2))).toEqual([
      'mcpServers.local-files.description: unknown key, ignored',
      'mcpServers.events.timeout: unknown key, ignored',
    ]);
    await using dir = await tempDir();
    const bad = join(dir.path, '.mcp.json');
    await writeFile(
      bad,
      JSON.stringify({
        mcpServers: {
          a: { command: 5 },
          b: { type: 'http' },
          c: 'npx x',
          d: { command: 'x', env: { N: 1 } },
        },
      }),
    );
    const loaded = await loadMcpConfig(bad, {});
    expect(loaded.problems.map((p) => p.slice(bad.length + 2))).toEqual([
      expect.stringMatching(/^mcpServers\.a\.command: .*string/),
      expect.stringMatching(/^mcpServers\.b\.url: /),
      'mcpServers.c.(server): must be an object with "command" or "url"',
      expect.stringMatching(/^mcpServers\.d\.env\.N: .*string/),
    ]);
    expect(loaded.problems.join('\n')).not.toMatch(/✖/);
  });

  test('an unset ${VAR} without a default is a warning naming the server and field', async () => {
    await using dir = await tempDir();
    const file = join(dir.path, '.mcp.json');
    await writeFile(
      file,
      JSON.stringify({ mcpServers: { gh: { command: 'gh-mcp', env: { TOKEN: '${GH_TOKEN}' } } } }),
    );
    const { servers, warnings } = await loadMcpConfig(file, {});
    expect(servers.get('gh')).toMatchObject({ env: { TOKEN: '' } });
    expect(warnings).toEqual([
      `${file}: mcpServers.gh.env.TOKEN: \${GH_TOKEN} is not set and has no default; replaced by ""`,
    ]);
  });

  test('a stdio server that dies is started again once; after a second death its tools say so', async () => {
    await using dir = await tempDir();
    const config = {
      mcpServers: { echo: { type: 'local', command: process.execPath, args: ['--import', TSX, SERVER] } },
    };
    await writeFile(join(dir.path, '.mcp.json'), JSON.stringify(config));
    const set = await loadMcpTools(dir.path);
    try {
      const died = await call(set, 'mcp__echo__die', {}, dir.path);
      expect(died).toMatchObject({ isError: true });
      expect(died.content).toMatch(/MCP server "echo" failed/);
      expect((await call(set, 'mcp__echo__echo', { text: 'back' }, dir.path)).content).toBe('echo: back');
      await call(set, 'mcp__echo__die', {}, dir.path);
      const gone = await call(set, 'mcp__echo__echo', { text: 'again' }, dir.path);
      expect(gone).toMatchObject({ isError: true });
      expect(gone.content).toMatch(/the MCP server "echo" died again after 1 restart/);
    } finally {
      await set.close();
    }
  });
});

describe('image and resource content of an MCP tool', () => {
  test('reaches the model as image and document blocks of the tool result (over the real SDK and HTTP)', async () => {
    await using dir = await tempDir();
    const config = { mcpServers: { echo: { command: process.execPath, args: ['--import', TSX, SERVER] } } };
    await writeFile(join(dir.path, '.mcp.json'), JSON.stringify(config));
    await using fixture = await modelFixture('fake-server', {
      steps: [
        { content: [{ type: 'tool_use', id: 't_pic', name: 'mcp__echo__picture', input: {} }] },
        { afterTool: 'mcp__echo__picture', content: [{ type: 'text', text: 'A pixel.' }] },
      ],
    });
    const runtime = new AgentRuntime({
      model: fixture.model,
      cwd: dir.path,
      tools: [],
      mcp: true,
      canUseTool: async () => ({ behavior: 'allow' }),
    });
    try {
      const { result } = await collect(runtime.submitMessage('Show me.'));
      expect(result.subtype).toBe('success');
      const sent = fixture.server!.requests.at(-1)!.body!.messages.at(-1)!;
      const toolResult = (sent.content as { type: string; content?: unknown }[]).find(
        (b) => b.type === 'tool_result',
      );
      expect(toolResult?.content).toEqual([
        { type: 'text', text: 'here it is' },
        { type: 'image', source: { type: 'base64', media_type: 'image/png', data: expect.any(String) } },
        {
          type: 'document',
          source: { type: 'text', media_type: 'text/plain', data: 'the notes' },
          title: 'file:///notes.txt',
        },
      ]);
      expect(invalidRequests(fixture)).toEqual([]);
      fixture.script.assertComplete();
    } finally {
      await runtime.close();
    }
  });
});
