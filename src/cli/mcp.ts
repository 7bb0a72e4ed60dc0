/**
 * `teamd mcp [--as <agent>] [--http [--port N]]`: the team as an MCP server
 * (src/mcp-server/, docs/MCP.md). Over stdio by default; stdout is the
 * protocol then, so nothing else is printed there.
 */
import type { Command } from 'commander';
import { serveHttp, serveStdio, type McpScope } from '../mcp-server/index.js';
import { AgentNameSchema } from '../store/types.js';
import { fail } from './cli-error.js';
import { printLine } from './output.js';
import { addDirOption, resolveRepoDir, type DirOption } from './repo-dir.js';

interface McpOptions extends DirOption {
  as?: string;
  http?: boolean;
  port?: string;
}

export function registerMcpCommand(program: Command): void {
  addDirOption(program.command('mcp').description('serve the team as MCP tools (stdio; --http for streamable HTTP on 127.0.0.1)'))
    .option('--as <agent>', "act as one agent: its inbox, its tasks, mail from it, and a permission_prompt tool")
    .option('--http', 'streamable HTTP on 127.0.0.1 with a bearer token (printed once; TEAMD_MCP_TOKEN sets it)')
    .option('--port <n>', 'with --http: the port (default: a free one)')
    .action(runMcp);
}

function scopeOf(options: McpOptions): McpScope {
  const as = options.as;
  if (as !== undefined && !AgentNameSchema.safeParse(as).success)
    fail(`--as: invalid agent name ${JSON.stringify(as)} (letters, digits, . _ -; no slashes or "..")`);
  return { repoRoot: resolveRepoDir(options), as: as ?? null };
}

function portOf(text: string | undefined): number {
  if (text === undefined) return 0;
  const n = Number(text);
  return Number.isInteger(n) && n >= 0 && n <= 65_535 ? n : fail(`--port: must be a port number 0–65535, got "${text}"`);
}

async function runMcp(options: McpOptions): Promise<void> {
  const scope = scopeOf(options);
  if (!options.http) {
    if (options.port !== undefined) fail('--port: only with --http');
    return serveStdio(scope);
  }
  const token = process.env.TEAMD_MCP_TOKEN?.trim() || undefined;
  const served = await serveHttp(scope, portOf(options.port), token).catch((err: Error) => fail(`--port: ${err.message}`));
  printLine(`url: ${served.url}`);
  printLine(`token: ${served.token}`);
  printLine(`(send every request with the header "Authorization: Bearer <token>"; Ctrl-C stops)`);
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await served.close();
}
