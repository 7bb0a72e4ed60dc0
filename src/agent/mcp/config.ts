/** Reading `.mcp.json`: each server validated on its own, `${VAR}` expanded. */
import { dirname } from 'node:path';
import { textDepthProblem } from '../../store/json-bounds.js';
import { readRepoFile, REPO_FILE_LIMITS } from '../../store/repo-file.js';
import { z } from 'zod';
import {
  McpConfigFileSchema,
  McpServerConfigSchema,
  type McpServerConfig,
  type ParsedMcpServer,
} from './types.js';

export interface McpConfig {
  servers: Map<string, ParsedMcpServer>;
  problems: string[];
}

const VARIABLE = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

export function expandVariables(text: string, env: Record<string, string | undefined>): string {
  // as in the shell: `:-` also replaces a variable that is set but empty
  return text.replace(VARIABLE, (_, name: string, fallback: string | undefined) => {
    const value = env[name];
    return value === undefined || (value === '' && fallback !== undefined) ? (fallback ?? '') : value;
  });
}

function expandServer(server: ParsedMcpServer, env: Record<string, string | undefined>): ParsedMcpServer {
  const x = (s: string): string => expandVariables(s, env);
  const map = (r: Record<string, string> | undefined) =>
    r === undefined ? undefined : Object.fromEntries(Object.entries(r).map(([k, v]) => [k, x(v)]));
  if (server.type === 'http') return { ...server, url: x(server.url), headers: map(server.headers) };
  return { ...server, command: x(server.command), args: server.args.map(x), env: map(server.env) };
}

/** Validates every server of `raw` (a `mcpServers` object); the bad ones become problems naming `source`. */
export function parseServers(
  raw: Record<string, unknown>,
  source: string,
  env: Record<string, string | undefined>,
): McpConfig {
  const servers = new Map<string, ParsedMcpServer>();
  const problems: string[] = [];
  for (const [name, value] of Object.entries(raw)) {
    const parsed = McpServerConfigSchema.safeParse(value);
    if (parsed.success) servers.set(name, expandServer(parsed.data, env));
    else
      problems.push(`${source}: mcpServers.${name}: ${z.prettifyError(parsed.error).replace(/\n/g, '; ')}`);
  }
  return { servers, problems };
}

/** The servers of a `.mcp.json`; a missing file is no servers, an unreadable or invalid one is a problem. */
export async function loadMcpConfig(
  file: string,
  env: Record<string, string | undefined> = process.env,
): Promise<McpConfig> {
  // A teammate can write here: a FIFO, /dev/zero, a huge file or a link out of its folder is refused unread.
  const read = await readRepoFile(file, dirname(file), REPO_FILE_LIMITS.config);
  if (read.kind !== 'text')
    return {
      servers: new Map(),
      problems: read.kind === 'missing' ? [] : [`${file}: ${read.problem.message}`],
    };
  const text = read.text;
  const deep = textDepthProblem(text);
  if (deep !== undefined) return { servers: new Map(), problems: [`${file}: not JSON (${deep})`] };
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return { servers: new Map(), problems: [`${file}: not JSON (${(error as Error).message})`] };
  }
  const parsed = McpConfigFileSchema.safeParse(json);
  if (!parsed.success) return { servers: new Map(), problems: [`${file}: ${z.prettifyError(parsed.error)}`] };
  return parseServers(parsed.data.mcpServers, file, env);
}

export const serversFromOptions = (
  servers: Record<string, McpServerConfig>,
  env: Record<string, string | undefined>,
): McpConfig => parseServers(servers, 'mcp.servers', env);
