/**
 * Hook settings from `.claude/settings.json`, `.claude/settings.local.json`
 * (their `hooks` key), the plugins' `hooks/hooks.json`, and teamd's own
 * config, in that order. Each entry is validated on its own: a bad one is
 * reported and left out, the rest load.
 */
import path from 'node:path';
import { readJsonObject } from './json-file.js';
import { mergeHookSettings, parseHookSettings, type LoadedHookSettings } from './parse.js';
import { loadPlugins, type LoadedPlugin } from './plugins.js';

export { HOOK_EVENTS, mergeHookSettings, parseHookSettings, type LoadedHookSettings } from './parse.js';

export interface HookLoadOptions {
  /** Plugin folders besides the discovered ones (`.claude/plugins/*`): absolute, or relative to the repository. */
  pluginDirs?: string[];
}

export interface LoadedHooks extends LoadedHookSettings {
  /** The plugins found (their agents folders are for the lead's roles). */
  plugins: LoadedPlugin[];
  /** Claude Code's `allowedHttpHookUrls` from either settings file: where `http` hooks may go besides loopback. */
  allowedHttpHookUrls: string[];
}

export async function loadHookSettings(
  repoRoot: string,
  extra?: unknown,
  options: HookLoadOptions = {},
): Promise<LoadedHooks> {
  const parts: LoadedHookSettings[] = [];
  const allowedHttpHookUrls: string[] = [];
  let disabled = false;
  for (const name of ['settings.json', 'settings.local.json']) {
    const file = path.join(repoRoot, '.claude', name);
    const read = await readJsonObject(file, repoRoot);
    if (!read.ok) parts.push({ settings: {}, problems: read.problems });
    else if (read.value.hooks !== undefined)
      parts.push(parseHookSettings(read.value.hooks, `${path.join('.claude', name)}: hooks`));
    if (read.ok && read.value.disableAllHooks === true) disabled = true;
    if (read.ok) allowedHttpHookUrls.push(...urlList(read.value.allowedHttpHookUrls, name, parts));
  }
  // Claude Code's switch: `"disableAllHooks": true` in either file turns every hook off.
  if (disabled)
    return { settings: {}, problems: parts.flatMap((p) => p.problems), plugins: [], allowedHttpHookUrls: [] };
  const plugins = await loadPlugins(repoRoot, options.pluginDirs ?? []);
  parts.push(...plugins.map((p) => p.hooks));
  if (extra !== undefined) parts.push(parseHookSettings(extra, 'teamd config hooks'));
  return { ...mergeHookSettings(parts), plugins, allowedHttpHookUrls };
}

function urlList(value: unknown, file: string, parts: LoadedHookSettings[]): string[] {
  if (value === undefined) return [];
  if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return value;
  parts.push({ settings: {}, problems: [`.claude/${file}: allowedHttpHookUrls: must be an array of URL patterns; ignored`] });
  return [];
}
