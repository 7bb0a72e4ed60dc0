/**
 * Hook settings from `.claude/settings.json`, `.claude/settings.local.json`
 * (their `hooks` key) and teamd's own config, in that order. Each entry is
 * validated on its own: a bad one is reported and left out, the rest load.
 */
import { textDepthProblem } from '../store/json-bounds.js';
import { readRepoFile, REPO_FILE_LIMITS } from '../store/repo-file.js';
import path from 'node:path';
import { z } from 'zod';
import type { HookCommand, HookEventName, HookMatcher, HookSettings } from './types.js';

export const HOOK_EVENTS: readonly HookEventName[] = [
  'PreToolUse',
  'PostToolUse',
  'UserPromptSubmit',
  'Stop',
  'SubagentStart',
  'SubagentStop',
  'SessionStart',
  'TeammateIdle',
  'TaskCompleted',
];

// Loose objects on purpose: Claude Code adds keys over time, and a user's settings must still load.
const HookCommandSchema = z.object({
  type: z.literal('command'),
  command: z.string().min(1, 'must not be empty'),
  timeout: z.number().positive('must be a positive number of seconds').optional(),
});
const HookMatcherSchema = z.object({ matcher: z.string().optional(), hooks: z.array(z.unknown()) });

export interface LoadedHookSettings {
  settings: HookSettings;
  /** Every entry left out, and why, naming the file and the field. */
  problems: string[];
}

export async function loadHookSettings(repoRoot: string, extra?: unknown): Promise<LoadedHookSettings> {
  const parts: LoadedHookSettings[] = [];
  for (const name of ['settings.json', 'settings.local.json']) {
    const file = path.join(repoRoot, '.claude', name);
    parts.push(await loadSettingsFile(file, path.join('.claude', name)));
  }
  if (extra !== undefined) parts.push(parseHookSettings(extra, 'teamd config hooks'));
  return mergeHookSettings(parts);
}

async function loadSettingsFile(file: string, shown: string): Promise<LoadedHookSettings> {
  // A teammate can write here: a FIFO, /dev/zero, a huge file or a link out of the repository is refused unread.
  const read = await readRepoFile(
    file,
    file.slice(0, file.length - shown.length - 1),
    REPO_FILE_LIMITS.config,
  );
  if (read.kind === 'missing') return { settings: {}, problems: [] };
  if (read.kind === 'invalid')
    return { settings: {}, problems: [`${shown}: cannot be read: ${read.problem.message}`] };
  const text = read.text;
  const deep = textDepthProblem(text);
  if (deep !== undefined) return { settings: {}, problems: [`${shown}: not valid JSON: ${deep}`] };
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return { settings: {}, problems: [`${shown}: not valid JSON: ${(error as Error).message}`] };
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json))
    return { settings: {}, problems: [`${shown}: must hold a JSON object`] };
  const hooks = (json as Record<string, unknown>).hooks;
  return hooks === undefined ? { settings: {}, problems: [] } : parseHookSettings(hooks, `${shown}: hooks`);
}

/** Validates a `hooks` object (event name → matchers); `source` prefixes every problem. */
export function parseHookSettings(value: unknown, source: string): LoadedHookSettings {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { settings: {}, problems: [`${source}: must be an object of event names`] };
  }
  const settings: HookSettings = {};
  const problems: string[] = [];
  for (const [event, matchers] of Object.entries(value)) {
    if (!(HOOK_EVENTS as readonly string[]).includes(event)) {
      problems.push(
        `${source}.${event}: not a supported hook event (supported: ${HOOK_EVENTS.join(', ')}); ignored`,
      );
      continue;
    }
    if (!Array.isArray(matchers)) {
      problems.push(`${source}.${event}: must be an array of { matcher, hooks } entries`);
      continue;
    }
    const valid = matchers.flatMap((m, i) => parseMatcher(m, `${source}.${event}[${i}]`, problems));
    if (valid.length > 0) settings[event as HookEventName] = valid;
  }
  return { settings, problems };
}

function parseMatcher(value: unknown, where: string, problems: string[]): HookMatcher[] {
  const parsed = HookMatcherSchema.safeParse(value);
  if (!parsed.success) {
    problems.push(...issues(where, parsed.error));
    return [];
  }
  const { matcher, hooks } = parsed.data;
  if (matcher !== undefined && !isValidRegex(matcher)) {
    problems.push(`${where}.matcher: ${JSON.stringify(matcher)} is not a valid regular expression`);
    return [];
  }
  const commands = hooks.flatMap((h, j) => parseCommand(h, `${where}.hooks[${j}]`, problems));
  if (commands.length === 0) return [];
  return [matcher === undefined ? { hooks: commands } : { matcher, hooks: commands }];
}

function parseCommand(value: unknown, where: string, problems: string[]): HookCommand[] {
  const type = typeof value === 'object' && value !== null ? (value as { type?: unknown }).type : undefined;
  if (type !== undefined && type !== 'command') {
    problems.push(`${where}.type: only "command" hooks are supported, not ${JSON.stringify(type)}; ignored`);
    return [];
  }
  const parsed = HookCommandSchema.safeParse(value);
  if (parsed.success) {
    const { type, command, timeout } = parsed.data;
    return [timeout === undefined ? { type, command } : { type, command, timeout }];
  }
  problems.push(...issues(where, parsed.error));
  return [];
}

function issues(where: string, error: z.ZodError): string[] {
  return error.issues.map((issue) => `${[where, ...issue.path.map(String)].join('.')}: ${issue.message}`);
}

function isValidRegex(source: string): boolean {
  try {
    new RegExp(source);
    return true;
  } catch {
    return false;
  }
}

/** Concatenates the matchers of each event, in the order given. */
export function mergeHookSettings(parts: LoadedHookSettings[]): LoadedHookSettings {
  const settings: HookSettings = {};
  for (const part of parts) {
    for (const event of HOOK_EVENTS) {
      const matchers = part.settings[event];
      if (matchers !== undefined) settings[event] = [...(settings[event] ?? []), ...matchers];
    }
  }
  return { settings, problems: parts.flatMap((p) => p.problems) };
}
