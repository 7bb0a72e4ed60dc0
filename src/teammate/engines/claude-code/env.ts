/**
 * Which `claude` runs, with which environment, and how it reaches teamd's MCP
 * server. The endpoint is the teammate's (else the team's): its `baseURL`
 * becomes ANTHROPIC_BASE_URL, the variable its `apiKeyEnv` / `tokenEnv` names
 * becomes ANTHROPIC_API_KEY / ANTHROPIC_AUTH_TOKEN. With no endpoint the CLI
 * inherits the environment as it is: an ANTHROPIC_API_KEY there, or the
 * user's own login (`claude /login`, a subscription).
 */
import { join } from 'node:path';
import { modulePath, packageRoot } from '../../../config/package-root.js';
import type { EndpointConfig } from '../../../config/schema.js';
import { MCP_SERVER } from './args.js';

/** `claudeCode.bin`, else $TEAMD_CLAUDE_BIN, else `claude` on PATH. */
export function claudeBin(configured: string | undefined, env: NodeJS.ProcessEnv = process.env): string {
  return configured ?? (env['TEAMD_CLAUDE_BIN'] || undefined) ?? 'claude';
}

export function claudeEnv(
  endpoint: EndpointConfig | undefined,
  extra: Record<string, string> | undefined,
  env: NodeJS.ProcessEnv = process.env,
): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = { ...env, ...extra };
  if (endpoint?.baseURL) out['ANTHROPIC_BASE_URL'] = endpoint.baseURL;
  const key = endpoint?.apiKeyEnv ? env[endpoint.apiKeyEnv] : undefined;
  const token = endpoint?.tokenEnv ? env[endpoint.tokenEnv] : undefined;
  if (key) out['ANTHROPIC_API_KEY'] = key;
  if (token) {
    out['ANTHROPIC_AUTH_TOKEN'] = token;
    delete out['ANTHROPIC_API_KEY']; // a bearer token endpoint: the key would win over it
  }
  return out;
}

/**
 * The command that starts this teamd's CLI: the built `dist/cli/main.js`, or
 * `src/cli/main.ts` through tsx when teamd itself runs from source.
 */
export function teamdCommand(here = modulePath(import.meta.url)): { command: string; args: string[] } {
  // From source the URL may carry a loader's query (`main.ts?tsx-namespace=…`): modulePath drops it.
  const fromSource = here.endsWith('.ts');
  const main = join(packageRoot(here), fromSource ? 'src' : 'dist', 'cli', `main.${fromSource ? 'ts' : 'js'}`);
  if (!fromSource) return { command: process.execPath, args: [main] };
  return { command: process.execPath, args: ['--import', import.meta.resolve('tsx'), main] };
}

/** `--mcp-config` JSON: `teamd mcp --as <name> --dir <repo>` as the server `teamd`. */
export function mcpConfigJson(agent: string, repoRoot: string): string {
  const { command, args } = teamdCommand();
  return JSON.stringify({
    mcpServers: { [MCP_SERVER]: { type: 'stdio', command, args: [...args, 'mcp', '--as', agent, '--dir', repoRoot] } },
  });
}
