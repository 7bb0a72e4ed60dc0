/**
 * One `.claude/agents/**.md` role file: front matter plus the system prompt
 * as body, read the way Claude Code reads it. What teamd cannot use as
 * written is a warning on the role (never a silent drop, never fatal):
 * unknown keys, unknown tool names, keys Claude Code has and teamd ignores.
 * Only a file that cannot be a role at all (no description, no prompt, bad
 * YAML, a bad name) is an error.
 */
import { basename } from 'node:path';
import { z } from 'zod';
import type { Outcome } from '../../store/types.js';
import { fieldList, fieldText, parseFrontMatter, type FrontMatterData } from '../context/front-matter.js';
import { parseHookSettings } from '../../hooks/parse.js';
import type { HookSettings } from '../../hooks/types.js';
import { mapToolList } from './role-tools.js';
import { SubagentRoleSchema, type SubagentRole } from './types.js';

/** Keys read into the role. */
const USED_KEYS = new Set([
  'name',
  'description',
  'tools',
  'disallowedTools',
  'model',
  'permissionMode',
  'maxTurns',
  'mcpServers',
  'hooks',
  'skills',
]);

/** Claude Code keys teamd reads but does not act on: a warning says so once. */
const IGNORED_KEYS: Record<string, string> = {};

/** Claude Code keys that only change its UI or features teamd has no counterpart of: ignored quietly. */
const QUIET_KEYS = new Set(['color', 'memory', 'effort', 'background', 'isolation', 'initialPrompt']);

const PERMISSION_MODES = new Set(['default', 'acceptEdits', 'bypassPermissions', 'plan', 'dontAsk']);
const MODEL_NAME = /^(inherit|sonnet|opus|haiku|opusplan|claude-[\w.[\]-]+|scripted:.+)$/;

function keyWarnings(data: FrontMatterData, file: string): string[] {
  return Object.keys(data).flatMap((key) => {
    if (USED_KEYS.has(key) || QUIET_KEYS.has(key)) return [];
    const why = IGNORED_KEYS[key];
    return [why ? `${file}: ${key}: ignored (${why})` : `${file}: ${key}: unknown key, ignored`];
  });
}

function permissionMode(data: FrontMatterData, file: string, warnings: string[]): string | undefined {
  const mode = fieldText(data, 'permissionMode');
  if (mode === undefined || PERMISSION_MODES.has(mode)) return mode;
  warnings.push(
    `${file}: permissionMode: "${mode}" is not one of ${[...PERMISSION_MODES].join(', ')}; ignored`,
  );
  return undefined;
}

function modelOf(data: FrontMatterData, file: string, warnings: string[]): string | undefined {
  const model = fieldText(data, 'model')?.trim();
  if (model !== undefined && !MODEL_NAME.test(model))
    warnings.push(
      `${file}: model: "${model}" is neither an alias (sonnet, opus, haiku, inherit) nor a claude-… id; used as given`,
    );
  return model === '' ? undefined : model;
}

function maxTurnsOf(data: FrontMatterData): number | undefined {
  const text = fieldText(data, 'maxTurns');
  return text === undefined ? undefined : Number(text);
}

/** Claude Code descriptions often carry `\n` as two characters in a plain scalar: they are newlines. */
const descriptionOf = (data: FrontMatterData): string =>
  (fieldText(data, 'description') ?? '').replace(/\\n/g, '\n').trim();

function candidateOf(data: FrontMatterData, body: string, file: string, warnings: string[]) {
  const tools = mapToolList(fieldList(data, 'tools'), `${file}: tools`, warnings);
  const denied = mapToolList(fieldList(data, 'disallowedTools'), `${file}: disallowedTools`, warnings);
  return {
    name: fieldText(data, 'name')?.trim() || basename(file, '.md'),
    description: descriptionOf(data),
    prompt: body,
    tools: tools?.tools,
    disallowedTools: denied?.plain,
    allowRules: tools && tools.rules.length > 0 ? tools.rules : undefined,
    denyRules: denied && denied.rules.length > 0 ? denied.rules : undefined,
    model: modelOf(data, file, warnings),
    permissionMode: permissionMode(data, file, warnings),
    mcpServers: fieldList(data, 'mcpServers'),
    maxTurns: maxTurnsOf(data),
    hooks: hooksOf(data, file, warnings),
    skills: fieldList(data, 'skills'),
  };
}

/** The role's own hooks, each entry checked as settings.json's are; a bad one is a warning and left out. */
function hooksOf(data: FrontMatterData, file: string, warnings: string[]): HookSettings | undefined {
  if (data.hooks === undefined || data.hooks === null) return undefined;
  const loaded = parseHookSettings(data.hooks, `${file}: hooks`);
  warnings.push(...loaded.problems);
  return Object.keys(loaded.settings).length > 0 ? loaded.settings : undefined;
}

export function parseRoleFile(text: string, file: string): Outcome<SubagentRole> {
  const doc = parseFrontMatter(text, file);
  if (!doc.ok) return doc;
  const { data, body } = doc.value;
  const warnings = keyWarnings(data, file);
  const candidate = candidateOf(data, body, file, warnings);
  const defined = Object.fromEntries(Object.entries(candidate).filter(([, v]) => v !== undefined));
  const parsed = SubagentRoleSchema.safeParse(defined);
  if (!parsed.success)
    return { ok: false, error: `${file}: ${z.prettifyError(parsed.error).replace(/\n/g, '; ')}` };
  return { ok: true, value: { ...parsed.data, source: file, ...(warnings.length > 0 ? { warnings } : {}) } };
}
