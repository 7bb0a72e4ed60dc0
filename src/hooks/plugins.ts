/**
 * Claude Code plugins, as far as hooks and agents go: a folder with an
 * optional `.claude-plugin/plugin.json` manifest, `hooks/hooks.json`
 * (`{ "description"?, "hooks": { … } }`, or the manifest's `hooks`: a path or
 * an inline object) and `agents/*.md`. Its hooks run with
 * `CLAUDE_PLUGIN_ROOT` set to the folder. Plugins are found in
 * `.claude/plugins/<name>/` of the repository and in the folders given.
 */
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { parseHookSettings, type LoadedHookSettings } from './parse.js';
import { readJsonObject } from './json-file.js';

export interface LoadedPlugin {
  name: string;
  root: string;
  hooks: LoadedHookSettings;
  /** Folders of agent files (`agents/`, and the manifest's `agents`), existing ones only. */
  agentDirs: string[];
}

const isDir = (p: string): boolean => {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
};

/** `.claude/plugins/*` folders, then `extra` (resolved from the repository), each once. */
export function pluginFolders(repoRoot: string, extra: readonly string[]): string[] {
  const base = path.join(repoRoot, '.claude', 'plugins');
  const found = isDir(base)
    ? readdirSync(base)
        .sort()
        .map((n) => path.join(base, n))
        .filter(isDir)
    : [];
  return [...new Set([...found, ...extra.map((d) => path.resolve(repoRoot, d))])];
}

export async function loadPlugins(repoRoot: string, extra: readonly string[]): Promise<LoadedPlugin[]> {
  return Promise.all(pluginFolders(repoRoot, extra).map((dir) => loadPlugin(dir)));
}

async function loadPlugin(root: string): Promise<LoadedPlugin> {
  const manifest = await readJsonObject(path.join(root, '.claude-plugin', 'plugin.json'), root);
  const meta = manifest.ok ? manifest.value : {};
  const name = typeof meta.name === 'string' ? meta.name : path.basename(root);
  const problems = manifest.ok ? [] : manifest.problems.map((p) => `plugin ${name}: ${p}`);
  const hooks = await pluginHooks(root, name, meta.hooks);
  const agents = [
    path.join(root, 'agents'),
    ...(typeof meta.agents === 'string' ? [path.resolve(root, meta.agents)] : []),
  ];
  return {
    name,
    root,
    hooks: { settings: hooks.settings, problems: [...problems, ...hooks.problems] },
    agentDirs: [...new Set(agents)].filter(isDir),
  };
}

async function pluginHooks(root: string, name: string, declared: unknown): Promise<LoadedHookSettings> {
  const label = `plugin ${name}`;
  if (typeof declared === 'object' && declared !== null && !Array.isArray(declared)) {
    const inner = (declared as { hooks?: unknown }).hooks ?? declared;
    return parseHookSettings(inner, `${label}: .claude-plugin/plugin.json: hooks`, { pluginRoot: root });
  }
  const rel = typeof declared === 'string' ? declared : path.join('hooks', 'hooks.json');
  const read = await readJsonObject(path.resolve(root, rel), root);
  if (!read.ok) return { settings: {}, problems: read.problems.map((p) => `${label}: ${p}`) };
  if (read.value.hooks === undefined) return { settings: {}, problems: [] };
  return parseHookSettings(read.value.hooks, `${label}: ${rel}: hooks`, { pluginRoot: root });
}
