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
}

export async function loadHookSettings(
  repoRoot: string,
  extra?: unknown,
  options: HookLoadOptions = {},
): Promise<LoadedHooks> {
  const parts: LoadedHookSettings[] = [];
  let disabled = false;
  for (const name of ['settings.json', 'settings.local.json']) {
    const file = path.join(repoRoot, '.claude', name);
    const read = await readJsonObject(file, repoRoot);
    if (!read.ok) parts.push({ settings: {}, problems: read.problems });
    else if (read.value.hooks !== undefined)
      parts.push(parseHookSettings(read.value.hooks, `${path.join('.claude', name)}: hooks`));
    if (read.ok && read.value.disableAllHooks === true) disabled = true;
  }
  // Claude Code's switch: `"disableAllHooks": true` in either file turns every hook off.
  if (disabled) return { settings: {}, problems: parts.flatMap((p) => p.problems), plugins: [] };
  const plugins = await loadPlugins(repoRoot, options.pluginDirs ?? []);
  parts.push(...plugins.map((p) => p.hooks));
  if (extra !== undefined) parts.push(parseHookSettings(extra, 'teamd config hooks'));
  return { ...mergeHookSettings(parts), plugins };
}
