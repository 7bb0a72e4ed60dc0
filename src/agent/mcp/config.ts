/** Reading `.mcp.json`: each server validated on its own, `${VAR}` expanded. */
import { dirname } from 'node:path';
import { textDepthProblem } from '../../store/json-bounds.js';
import { readRepoFile, REPO_FILE_LIMITS } from '../../store/repo-file.js';
import { expandVariables, parseServer, type Env } from './server-config.js';
import type { McpServerConfig, ParsedMcpServer } from './types.js';

export interface McpConfig {
  servers: Map<string, ParsedMcpServer>;
  /** Servers left out (bad config), naming the file, server and field. */
  problems: string[];
  /** Servers that load with something ignored (unknown keys, unset variables). */
  warnings: string[];
}

export { expandVariables };

/** Validates every server of `raw` (a `mcpServers` object); the bad ones become problems naming `source`. */
export function parseServers(raw: Record<string, unknown>, source: string, env: Env): McpConfig {
  const config: McpConfig = { servers: new Map(), problems: [], warnings: [] };
  for (const [name, value] of Object.entries(raw)) {
    const parsed = parseServer(value, env);
    const at = (line: string) => `${source}: mcpServers.${name}.${line}`;
    config.warnings.push(...parsed.warnings.map(at));
    if (parsed.server) config.servers.set(name, parsed.server);
    else config.problems.push(...parsed.errors.map(at));
  }
  return config;
}

/** The servers of a `.mcp.json`; a missing file is no servers, an unreadable or invalid one is a problem. */
export async function loadMcpConfig(file: string, env: Env = process.env): Promise<McpConfig> {
  const none = (problem?: string): McpConfig => ({
    servers: new Map(),
    problems: problem === undefined ? [] : [problem],
    warnings: [],
  });
  // A teammate can write here: a FIFO, /dev/zero, a huge file or a link out of its folder is refused unread.
  const read = await readRepoFile(file, dirname(file), REPO_FILE_LIMITS.config);
  if (read.kind !== 'text')
    return none(read.kind === 'missing' ? undefined : `${file}: ${read.problem.message}`);
  const text = read.text;
  const deep = textDepthProblem(text);
  if (deep !== undefined) return none(`${file}: not JSON (${deep})`);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return none(`${file}: not JSON (${(error as Error).message})`);
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json))
    return none(`${file}: must hold a JSON object with "mcpServers"`);
  const servers = (json as { mcpServers?: unknown }).mcpServers;
  if (servers === undefined) return none();
  if (typeof servers !== 'object' || servers === null || Array.isArray(servers))
    return none(`${file}: mcpServers: must be an object of server name → server`);
  return parseServers(servers as Record<string, unknown>, file, env);
}

export const serversFromOptions = (servers: Record<string, McpServerConfig>, env: Env): McpConfig =>
  parseServers(servers, 'mcp.servers', env);
