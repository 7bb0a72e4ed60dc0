/**
 * The real `teamd mcp` process in a temp git repository, and an MCP SDK
 * client connected to it (stdio); every test talks to the server only
 * through the protocol, and looks at the files it wrote.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll } from 'vitest';
import { CLI_SOURCE, teamdArgs } from '../support/teamd-cli.js';

export const MAIN = CLI_SOURCE;

export interface McpRepo {
  dir: string;
  cleanup(): void;
}

/** A git repository with `.team/config.json` naming `teammates`. */
export function makeMcpRepo(config: Record<string, unknown> = { teammates: [{ name: 'worker-1' }, { name: 'worker-2' }] }): McpRepo {
  const dir = mkdtempSync(join(tmpdir(), 'teamd-mcp-'));
  execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: dir });
  mkdirSync(join(dir, '.team'), { recursive: true });
  mkdirSync(join(dir, '.tasks'), { recursive: true });
  writeFileSync(join(dir, '.team', 'config.json'), JSON.stringify(config, null, 2));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 50 }) };
}

export interface McpSession extends AsyncDisposable {
  client: Client;
  /** Calls a tool; returns its text and whether it was a tool error. */
  call(name: string, args: Record<string, unknown>): Promise<{ text: string; isError: boolean }>;
  /** Calls a tool that must succeed and parses its JSON text. */
  json<T = unknown>(name: string, args: Record<string, unknown>): Promise<T>;
  stderr(): string;
}

/** `teamd mcp --dir <dir> …args` as its own process, with a connected client. */
export async function connectStdio(dir: string, args: string[] = [], env: Record<string, string> = {}): Promise<McpSession> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: teamdArgs('mcp', '--dir', dir, ...args),
    env: { ...(process.env as Record<string, string>), ...env },
    stderr: 'pipe',
  });
  let err = '';
  transport.stderr?.on('data', (d: Buffer) => (err += d.toString()));
  const client = new Client({ name: 'teamd-test', version: '1.0.0' });
  await client.connect(transport);
  return sessionOf(client, () => err);
}

export function sessionOf(client: Client, stderr: () => string = () => ''): McpSession {
  const call = async (name: string, args: Record<string, unknown>) => {
    const r = (await client.callTool({ name, arguments: args })) as CallToolResult;
    const first = r.content[0];
    return { text: first?.type === 'text' ? first.text : '', isError: r.isError === true };
  };
  return {
    client,
    call,
    json: async <T>(name: string, args: Record<string, unknown>) => {
      const r = await call(name, args);
      if (r.isError) throw new Error(`${name} failed: ${r.text}`);
      return JSON.parse(r.text) as T;
    },
    stderr,
    [Symbol.asyncDispose]: () => client.close(),
  };
}

export interface SharedSessions {
  repo: McpRepo;
  /** `teamd mcp` as a person. */
  person: McpSession;
  /** `teamd mcp --as worker-1`. */
  agent: McpSession;
}

/** One repository and two servers on it for the whole file (opened in `beforeAll`, closed in `afterAll`). */
export function sharedSessions(): SharedSessions {
  const shared = {} as SharedSessions;
  beforeAll(async () => {
    shared.repo = makeMcpRepo();
    [shared.person, shared.agent] = await Promise.all([connectStdio(shared.repo.dir), connectStdio(shared.repo.dir, ['--as', 'worker-1'])]);
  });
  afterAll(async () => {
    await shared.person?.[Symbol.asyncDispose]();
    await shared.agent?.[Symbol.asyncDispose]();
    shared.repo?.cleanup();
  });
  return shared;
}
