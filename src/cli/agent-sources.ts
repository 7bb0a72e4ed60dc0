/**
 * What `teamd agent -p` reads besides `.team/config.json`, the way `claude -p`
 * reads it: `--settings` (a file or a JSON string; its `hooks` are added to
 * those of `.claude/settings*.json`), `--mcp-config` (files or JSON strings,
 * added to `.mcp.json`, or alone with `--strict-mcp-config`), and the
 * transcript to go on with for `--resume <id>` / `--continue`.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseServers } from '../agent/mcp/config.js';
import type { McpLoadOptions, McpServerConfig } from '../agent/mcp/types.js';
import { loadHookSettings, parseHookSettings } from '../hooks/index.js';
import type { HookSettings } from '../hooks/types.js';
import { CliError } from './cli-error.js';
import { printWarning } from './output.js';

/** A flag's value: a JSON object given inline, or the path of a file holding one. */
export function jsonOf(flag: string, value: string, cwd: string): Record<string, unknown> {
  const text = value.trimStart().startsWith('{') ? value : readFlagFile(flag, resolve(cwd, value));
  try {
    const json: unknown = JSON.parse(text);
    if (typeof json === 'object' && json !== null && !Array.isArray(json))
      return json as Record<string, unknown>;
  } catch (error) {
    throw new CliError(`teamd agent ${flag}: ${value}: not valid JSON: ${(error as Error).message}`);
  }
  throw new CliError(`teamd agent ${flag}: ${value}: must hold a JSON object`);
}

function readFlagFile(flag: string, file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    throw new CliError(
      `teamd agent ${flag}: cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`,
    );
  }
}

export interface HookSources {
  settings: HookSettings;
  problems: string[];
  /** Where `http` hooks may go besides loopback (the settings' `allowedHttpHookUrls`). */
  allowedHttpHookUrls?: string[];
}

/** `.claude/settings.json`, `settings.local.json`, teamd's config hooks, then `--settings`. */
export async function hookSources(
  cwd: string,
  configHooks: unknown,
  settingsFlag?: string,
): Promise<HookSources> {
  const loaded = await loadHookSettings(cwd, configHooks);
  if (settingsFlag === undefined) return loaded;
  const hooks = jsonOf('--settings', settingsFlag, cwd).hooks;
  if (hooks === undefined) return loaded;
  const added = parseHookSettings(hooks, '--settings: hooks');
  const settings: HookSettings = { ...loaded.settings };
  for (const [event, matchers] of Object.entries(added.settings) as [
    keyof HookSettings,
    HookSettings[keyof HookSettings],
  ][])
    settings[event] = [...(settings[event] ?? []), ...(matchers ?? [])];
  return {
    settings,
    problems: [...loaded.problems, ...added.problems],
    allowedHttpHookUrls: loaded.allowedHttpHookUrls,
  };
}

export interface McpSources {
  /** `false` when no server is configured anywhere. */
  options: McpLoadOptions | false;
  /** Every server name configured (for `system/init`'s `mcp_servers`). */
  names: string[];
}

/**
 * The `mcpServers` of one config, each server checked as `.mcp.json` is
 * (unknown keys are fine, bad fields are not). A bad server given with
 * `--mcp-config` is an error; one in the project's `.mcp.json` is a warning
 * and left out, as the runtime's loader does.
 */
const serversIn = (json: Record<string, unknown>, where: string, strict: boolean): Record<string, McpServerConfig> => {
  const servers = json.mcpServers;
  const flag = strict ? 'teamd agent --mcp-config: ' : '';
  if (typeof servers !== 'object' || servers === null || Array.isArray(servers))
    throw new CliError(`${flag}${where}: mcpServers: expected an object of servers`);
  const { problems, servers: good } = parseServers(servers as Record<string, unknown>, where, process.env);
  if (problems.length > 0 && strict) throw new CliError(`${flag}${problems.join('; ')}`);
  for (const problem of problems) printWarning(`${problem} (server left out)`);
  const kept = Object.entries(servers as Record<string, McpServerConfig>).filter(([name]) => good.has(name));
  return Object.fromEntries(kept);
};

export function mcpSources(cwd: string, configs: string[], strict: boolean): McpSources {
  const file = join(cwd, '.mcp.json');
  const project = !strict && existsSync(file) ? serversIn(jsonOf('.mcp.json', file, cwd), '.mcp.json', false) : {};
  const given = configs.map((c) => serversIn(jsonOf('--mcp-config', c, cwd), c, true));
  const servers = Object.assign({}, project, ...given) as Record<string, McpServerConfig>;
  const names = Object.keys(servers);
  if (names.length === 0) return { options: false, names };
  return { options: given.length === 0 && !strict ? {} : { servers }, names };
}

/** The session to go on with: `--resume <id>`, or the newest transcript for `--continue`. */
export function sessionToResume(
  dir: string,
  flags: { resume?: string; continue?: boolean },
): string | undefined {
  if (flags.resume !== undefined) return flags.resume;
  if (!flags.continue) return undefined;
  const files = existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.jsonl')) : [];
  const newest = files.sort((a, b) => statSync(join(dir, b)).mtimeMs - statSync(join(dir, a)).mtimeMs)[0];
  if (newest === undefined) throw new CliError(`teamd agent --continue: no earlier session in ${dir}`);
  return newest.slice(0, -'.jsonl'.length);
}
