/**
 * `loadMcpTools`: starts the configured MCP servers (in parallel), wraps
 * their tools, and reports the servers it had to skip. The daemon calls it
 * once per agent (or the runtime does, with the `mcp` option); subagents
 * call it with `only` for their role's servers. The MCP SDK (with ajv) is
 * imported only when there is a server to start: most agents have none.
 */
import { join } from 'node:path';
import type { Outcome } from '../../store/types.js';
import { loadMcpConfig, serversFromOptions, type McpConfig } from './config.js';
import type { ConnectedServer } from './connect.js';
import { mcpTool } from './tool.js';
import type { McpLoadOptions, McpToolSet } from './types.js';

export const mcpConfigFile = (root: string): string => join(root, '.mcp.json');

export async function loadMcpTools(root: string, opts: McpLoadOptions = {}): Promise<McpToolSet> {
  const env = opts.env ?? process.env;
  const config = opts.servers
    ? serversFromOptions(opts.servers, env)
    : await loadMcpConfig(opts.configFile ?? mcpConfigFile(root), env);
  const problems = [...config.problems];
  const wanted = opts.only ?? [...config.servers.keys()];
  for (const name of wanted)
    if (!config.servers.has(name)) problems.push(`MCP server "${name}" is not configured`);
  const chosen = wanted.filter((name) => config.servers.has(name));
  const outcomes = await startServers(chosen, config, root, opts.connectTimeoutMs ?? 30_000);
  const started: ConnectedServer[] = [];
  for (const outcome of outcomes) {
    if (outcome.ok) started.push(outcome.value);
    else problems.push(outcome.error);
  }
  const callTimeout = opts.callTimeoutMs ?? 600_000;
  return {
    tools: started.flatMap((s) => s.tools.map((info) => mcpTool(s.name, s.client, info, callTimeout))),
    servers: started.map((s) => s.name),
    problems,
    close: async () => {
      await Promise.allSettled(started.map((s) => s.client.close()));
    },
  };
}

/** Starts the servers `names` in parallel; the SDK is imported here, when there is one to start. */
async function startServers(
  names: string[],
  config: McpConfig,
  root: string,
  timeoutMs: number,
): Promise<Outcome<ConnectedServer>[]> {
  if (names.length === 0) return [];
  const { connectServer } = await import('./connect.js');
  return Promise.all(names.map((n) => connectServer(n, config.servers.get(n)!, root, timeoutMs)));
}
