/**
 * Files that the protected config runs: a hook in `.claude/settings.json`
 * (`"command": "$CLAUDE_PROJECT_DIR/scripts/check.sh"`), its status line or
 * helper commands, an MCP server in `.mcp.json` (`"command": "node", "args":
 * ["tools/server.js"]`). Changing such a file changes what runs on every
 * agent's tool call without the protected file in the diff, so it needs a
 * person too. The commands are read from the integration tip (the config in
 * force; a branch that changes the config itself is held by name). Only
 * files named in the command are found: what a script runs in turn (an
 * `npm run` script, a file it sources) is not followed.
 */
import { foldPath } from './protected-paths.js';
import { git } from './run-git.js';

const SOURCES: [file: string, why: string][] = [
  ['.claude/settings.json', 'run by a command in .claude/settings.json'],
  ['.mcp.json', 'started by an MCP server in .mcp.json'],
];
const COMMAND_KEYS = new Set(['command', 'args', 'apiKeyHelper', 'awsAuthRefresh', 'awsCredentialExport', 'otelHeadersHelper']);
const PROJECT_DIR = /^\$\{?CLAUDE_PROJECT_DIR\}?\/?/;
/** Longest config read: a bigger one is not a settings file to parse here. */
const MAX_CONFIG_CHARS = 1_000_000;

/** Every string under a command-like key, at any depth. */
export function commandStrings(value: unknown, underCommand = false): string[] {
  if (typeof value === 'string') return underCommand ? [value] : [];
  if (Array.isArray(value)) return value.flatMap((v) => commandStrings(v, underCommand));
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([k, v]) => commandStrings(v, underCommand || COMMAND_KEYS.has(k)));
}

/** The repository-relative paths a command names (folded), e.g. `scripts/check.sh` in `"$CLAUDE_PROJECT_DIR"/scripts/check.sh --fast`. */
export function commandPaths(command: string): string[] {
  return command
    .split(/[\s;|&()<>`]+/)
    .map((t) => t.replace(/["']/g, '').replace(PROJECT_DIR, ''))
    .filter((t) => t !== '' && !t.startsWith('-') && !t.startsWith('/') && !t.includes('$') && !t.includes('='))
    .map((t) => foldPath(t).join('/'))
    .filter((t) => t !== '' && !t.startsWith('..'));
}

/** The paths (folded) that the protected config at `rev` runs, each with why. */
export async function configuredPaths(repoRoot: string, rev: string): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  for (const [file, why] of SOURCES) {
    const read = await git(repoRoot, ['cat-file', 'blob', `${rev}:${file}`], { raw: true });
    if (!read.ok || read.value.length > MAX_CONFIG_CHARS) continue;
    let parsed: unknown;
    try {
      parsed = JSON.parse(read.value);
    } catch {
      continue; // an unreadable config runs nothing
    }
    for (const path of commandStrings(parsed).flatMap(commandPaths)) if (!found.has(path)) found.set(path, why);
  }
  return found;
}

/**
 * Why the change of `path` needs a person because the config runs it, or
 * undefined. Exact paths only: a folder a command names (`eslint src`) is
 * what the command reads, not what it runs.
 */
export function configuredReason(path: string, configured: ReadonlyMap<string, string>): string | undefined {
  return configured.get(foldPath(path).join('/'));
}
