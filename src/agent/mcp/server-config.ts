/**
 * One `mcpServers` entry: its transport chosen from `type` (or from `command`
 * / `url` when there is none), checked, and `${VAR}` expanded. Errors name the
 * server and the field; unknown keys and unset variables are warnings.
 */
import type { z } from 'zod';
import type { Outcome } from '../../store/types.js';
import {
  MCP_SERVER_KEYS,
  McpRemoteServerSchema,
  McpStdioServerSchema,
  type ParsedMcpServer,
} from './types.js';

export type Env = Record<string, string | undefined>;

const VARIABLE = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

/** `${VAR}` and `${VAR:-default}`; `missing` collects the variables that were unset and had no default. */
export function expandVariables(text: string, env: Env, missing: string[] = []): string {
  // as in the shell: `:-` also replaces a variable that is set but empty
  return text.replace(VARIABLE, (_, name: string, fallback: string | undefined) => {
    const value = env[name];
    if (value === undefined && fallback === undefined) missing.push(name);
    return value === undefined || (value === '' && fallback !== undefined) ? (fallback ?? '') : value;
  });
}

type Kind = 'stdio' | 'remote';

function kindOf(value: Record<string, unknown>): Outcome<Kind> {
  const type = value.type;
  if (type === undefined)
    return { ok: true, value: 'url' in value && !('command' in value) ? 'remote' : 'stdio' };
  if (type === 'stdio' || type === 'local') return { ok: true, value: 'stdio' };
  if (type === 'http' || type === 'sse') return { ok: true, value: 'remote' };
  return {
    ok: false,
    error: `type: ${JSON.stringify(type)} is not one of stdio, http, sse (local means stdio)`,
  };
}

/** A key as a field name: as it is when it is a plain word, else JSON-quoted (`env.""`). */
const fieldName = (key: PropertyKey): string =>
  typeof key === 'string' && /^[\w-]+$/.test(key) ? key : JSON.stringify(String(key));

const issueLines = (error: z.ZodError): string[] =>
  error.issues.map(
    (issue) =>
      `${issue.path.length > 0 ? issue.path.map(fieldName).join('.') : '(server)'}: ${issue.message}`,
  );

function expand(
  server: ParsedMcpServer,
  env: Env,
  warn: (field: string, names: string[]) => void,
): ParsedMcpServer {
  const x =
    (field: string) =>
    (s: string): string => {
      const missing: string[] = [];
      const out = expandVariables(s, env, missing);
      if (missing.length > 0) warn(field, missing);
      return out;
    };
  const map = (field: string, r: Record<string, string> | undefined) =>
    r === undefined
      ? undefined
      : Object.fromEntries(Object.entries(r).map(([k, v]) => [k, x(`${field}.${fieldName(k)}`)(v)]));
  if (server.type !== 'stdio')
    return { ...server, url: x('url')(server.url), headers: map('headers', server.headers) };
  return {
    ...server,
    command: x('command')(server.command),
    args: server.args.map(x('args')),
    env: map('env', server.env),
  };
}

export interface ServerParse {
  server?: ParsedMcpServer;
  /** Each a `field: message` line; the caller prefixes file and server. */
  errors: string[];
  warnings: string[];
}

export function parseServer(value: unknown, env: Env): ServerParse {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return { errors: ['(server): must be an object with "command" or "url"'], warnings: [] };
  const raw = value as Record<string, unknown>;
  const kind = kindOf(raw);
  if (!kind.ok) return { errors: [kind.error], warnings: [] };
  const warnings = Object.keys(raw)
    .filter((key) => !(MCP_SERVER_KEYS[kind.value] as readonly string[]).includes(key))
    .map((key) => `${fieldName(key)}: unknown key, ignored`);
  const parsed =
    kind.value === 'stdio' ? McpStdioServerSchema.safeParse(raw) : McpRemoteServerSchema.safeParse(raw);
  if (!parsed.success) return { errors: issueLines(parsed.error), warnings };
  const server = (
    kind.value === 'stdio' ? { ...parsed.data, type: 'stdio' } : parsed.data
  ) as ParsedMcpServer;
  const warn = (field: string, names: string[]) =>
    warnings.push(`${field}: \${${names.join('}, ${')}} is not set and has no default; replaced by ""`);
  return { server: expand(server, env, warn), errors: [], warnings };
}
