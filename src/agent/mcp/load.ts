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
import type { McpServerHandle } from './server-handle.js';
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
  const timeoutMs = opts.connectTimeoutMs ?? 30_000;
  const outcomes = await startServers(chosen, config, root, timeoutMs);
  const started: { info: ConnectedServer; handle: McpServerHandle }[] = [];
  for (const outcome of outcomes) {
    if (outcome.ok) started.push(outcome.value);
    else problems.push(outcome.error);
  }
  const callTimeout = opts.callTimeoutMs ?? 600_000;
  return {
    tools: started.flatMap((s) => s.info.tools.map((tool) => mcpTool(s.handle, tool, callTimeout))),
    servers: started.map((s) => s.info.name),
    problems,
    warnings: config.warnings,
    close: async () => {
      await Promise.allSettled(started.map((s) => s.handle.close()));
    },
  };
}

/** Starts the servers `names` in parallel; the SDK is imported here, when there is one to start. */
async function startServers(
  names: string[],
  config: McpConfig,
  root: string,
  timeoutMs: number,
): Promise<Outcome<{ info: ConnectedServer; handle: McpServerHandle }>[]> {
  if (names.length === 0) return [];
  const [{ connectServer }, { McpServerHandle }] = await Promise.all([
    import('./connect.js'),
    import('./server-handle.js'),
  ]);
  return Promise.all(
    names.map(async (n) => {
      const server = config.servers.get(n)!;
      const outcome = await connectServer(n, server, root, timeoutMs);
      if (!outcome.ok) return outcome;
      const handle = new McpServerHandle(n, outcome.value, { server, root, timeoutMs });
      return { ok: true as const, value: { info: outcome.value, handle } };
    }),
  );
}
