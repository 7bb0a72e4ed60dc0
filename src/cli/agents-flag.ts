/**
 * `teamd agent --agents '<json>'`: subagents defined on the command line, in
 * Claude Code's shape (`{"reviewer": {"description": "…", "prompt": "…",
 * "tools": ["Read"], "model": "sonnet"}}`), or a file holding it. Each entry is read exactly as an
 * agent file with those keys would be (tool names mapped, warnings for what
 * is not used), and wins over `.claude/agents/` files of the same name.
 */
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { stringify } from 'yaml';
import { parseRoleFile } from '../agent/subagents/role-file.js';
import type { SubagentRoleInput } from '../agent/subagents/types.js';
import { CliError } from './cli-error.js';

export interface FlagAgents {
  roles: SubagentRoleInput[];
  warnings: string[];
}

function entryOf(name: string, value: unknown): { role: SubagentRoleInput; warnings: string[] } {
  const where = `--agents ${name}`;
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new CliError(`teamd agent ${where}: must be an object with description and prompt`);
  const { prompt, ...front } = value as Record<string, unknown>;
  if (typeof prompt !== 'string' || prompt.trim() === '')
    throw new CliError(`teamd agent ${where}.prompt: must be a non-empty string`);
  const parsed = parseRoleFile(`---\n${stringify({ ...front, name })}---\n${prompt}\n`, where);
  if (!parsed.ok) throw new CliError(`teamd agent ${parsed.error}`);
  const { source: _s, warnings = [], ...role } = parsed.value;
  return { role, warnings };
}

/** The flag's JSON, or (as Claude Code allows in print mode) the file that holds it. */
function textOf(given: string, cwd: string): string {
  if (given.trimStart().startsWith('{')) return given;
  const file = resolve(cwd, given);
  if (!existsSync(file)) throw new CliError(`teamd agent --agents: neither JSON nor a file: ${given}`);
  return readFileSync(file, 'utf8');
}

export function agentsFlag(given: string | undefined, cwd: string): FlagAgents {
  if (given === undefined) return { roles: [], warnings: [] };
  let value: unknown;
  try {
    value = JSON.parse(textOf(given, cwd));
  } catch (error) {
    throw new CliError(`teamd agent --agents: not JSON: ${(error as Error).message}`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new CliError('teamd agent --agents: must be a JSON object of agent names');
  const entries = Object.entries(value).map(([name, v]) => entryOf(name, v));
  return { roles: entries.map((e) => e.role), warnings: entries.flatMap((e) => e.warnings) };
}
