/**
 * `teamd validate`'s check of the Claude Code files a repository brings:
 * `.claude/settings.json` and `settings.local.json` (JSON, hooks, permission
 * rules and mode), `.claude/agents/**.md` and `.mcp.json`. Each finding names
 * the file (with its line where one can be found) and the field. Problems
 * make validate fail; warnings (what loads with something ignored) do not.
 */
import { join, relative } from 'node:path';
import { loadMcpConfig } from '../agent/mcp/config.js';
import { mcpConfigFile } from '../agent/mcp/load.js';
import { ruleProblems } from '../agent/permissions/rules.js';
import { loadRoles } from '../agent/subagents/roles.js';
import { parseHookSettings } from '../hooks/settings.js';
import { textDepthProblem } from '../store/json-bounds.js';
import { readRepoFile, REPO_FILE_LIMITS } from '../store/repo-file.js';
import type { FileProblem } from '../store/types.js';

export interface ClaudeFilesReport {
  problems: FileProblem[];
  warnings: FileProblem[];
}

const SETTINGS_FILES = ['settings.json', 'settings.local.json'];
const MODES = ['default', 'acceptEdits', 'bypassPermissions', 'plan', 'dontAsk'];

/** The first line (1-based) holding `needle`, for pointing at a field of a JSON file. */
export function lineOf(text: string, needle: string): number | undefined {
  const at = text.indexOf(needle);
  return at === -1 ? undefined : text.slice(0, at).split('\n').length;
}

/** `file: rest` (as the loaders word their messages) → a problem with a repo-relative file. */
export function asProblem(repo: string, line: string, text?: string, needle?: string): FileProblem {
  const cut = line.indexOf(': ');
  const file = cut === -1 ? '' : line.slice(0, cut);
  const shown = file.startsWith('/') ? relative(repo, file) : file;
  const at = text !== undefined && needle !== undefined ? lineOf(text, needle) : undefined;
  return {
    file: at === undefined ? shown : `${shown}:${at}`,
    message: cut === -1 ? line : line.slice(cut + 2),
  };
}

type Json = { text: string; value: Record<string, unknown> } | { problem: string } | null;

async function readJson(file: string, root: string, shown: string): Promise<Json> {
  const read = await readRepoFile(file, root, REPO_FILE_LIMITS.config);
  if (read.kind === 'missing') return null;
  if (read.kind === 'invalid') return { problem: `${shown}: cannot be read: ${read.problem.message}` };
  const deep = textDepthProblem(read.text);
  if (deep !== undefined) return { problem: `${shown}: not valid JSON: ${deep}` };
  try {
    const value: unknown = JSON.parse(read.text);
    if (typeof value === 'object' && value !== null && !Array.isArray(value))
      return { text: read.text, value: value as Record<string, unknown> };
    return { problem: `${shown}: must hold a JSON object` };
  } catch (error) {
    return { problem: `${shown}: not valid JSON: ${(error as Error).message}` };
  }
}

function permissionProblems(shown: string, permissions: unknown): string[] {
  if (permissions === undefined) return [];
  if (typeof permissions !== 'object' || permissions === null || Array.isArray(permissions))
    return [`${shown}: permissions: must be an object with allow, deny, ask`];
  const p = permissions as Record<string, unknown>;
  const out: string[] = [];
  for (const list of ['allow', 'deny', 'ask']) {
    const rules = p[list];
    if (rules === undefined) continue;
    if (!Array.isArray(rules) || rules.some((r) => typeof r !== 'string'))
      out.push(`${shown}: permissions.${list}: must be a list of rule strings`);
    else out.push(...ruleProblems(`permissions.${list}`, rules as string[]).map((m) => `${shown}: ${m}`));
  }
  const dirs = p.additionalDirectories;
  if (dirs !== undefined && (!Array.isArray(dirs) || dirs.some((d) => typeof d !== 'string' || d === '')))
    out.push(`${shown}: permissions.additionalDirectories: must be a list of directory paths`);
  if (p.defaultMode !== undefined && !MODES.includes(p.defaultMode as string))
    out.push(
      `${shown}: permissions.defaultMode: ${JSON.stringify(p.defaultMode)} is not one of ${MODES.join(', ')}`,
    );
  return out;
}

async function settingsReport(repo: string, into: ClaudeFilesReport): Promise<void> {
  for (const name of SETTINGS_FILES) {
    const shown = join('.claude', name);
    const json = await readJson(join(repo, shown), repo, shown);
    if (json === null) continue;
    if ('problem' in json) {
      into.problems.push(asProblem(repo, json.problem));
      continue;
    }
    const hooks = json.value.hooks;
    const hookLines = hooks === undefined ? [] : parseHookSettings(hooks, `${shown}: hooks`).problems;
    for (const line of hookLines) {
      const event = /: hooks\.(\w+)/.exec(line)?.[1];
      const found = asProblem(repo, line, json.text, event === undefined ? undefined : `"${event}"`);
      (line.endsWith('; ignored') ? into.warnings : into.problems).push(found);
    }
    for (const line of permissionProblems(shown, json.value.permissions)) {
      const rule = /invalid permission rule ("(?:[^"\\]|\\.)*")/.exec(line)?.[1];
      into.problems.push(asProblem(repo, line, json.text, rule));
    }
  }
}

async function agentsReport(repo: string, into: ClaudeFilesReport): Promise<void> {
  const { problems, warnings } = await loadRoles(repo, [], { userDir: null });
  into.problems.push(...problems.map((p) => asProblem(repo, p)));
  into.warnings.push(...warnings.map((w) => asProblem(repo, w)));
}

async function mcpReport(repo: string, into: ClaudeFilesReport): Promise<void> {
  const file = mcpConfigFile(repo);
  const read = await readRepoFile(file, repo, REPO_FILE_LIMITS.config);
  const text = read.kind === 'text' ? read.text : undefined;
  const config = await loadMcpConfig(file);
  const server = (line: string) => /: mcpServers\.([^.]+)\./.exec(line)?.[1];
  const place = (line: string) => {
    const name = server(line);
    return asProblem(repo, line, text, name === undefined ? undefined : JSON.stringify(name));
  };
  into.problems.push(...config.problems.map(place));
  into.warnings.push(...config.warnings.map(place));
}

export async function checkClaudeFiles(repo: string): Promise<ClaudeFilesReport> {
  const report: ClaudeFilesReport = { problems: [], warnings: [] };
  await settingsReport(repo, report);
  await agentsReport(repo, report);
  await mcpReport(repo, report);
  return report;
}
