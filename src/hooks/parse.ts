/**
 * Validates a `hooks` object (Claude Code's shape: event name → matchers →
 * handlers). Each entry stands alone: a bad one is a problem naming its field
 * and is left out; the rest load. Keys Claude Code added that teamd does not
 * use are accepted silently; handler types it cannot run are warnings.
 */
import { z } from 'zod';
import type { HookCommand, HookEventName, HookMatcher, HookSettings } from './types.js';

export const HOOK_EVENTS: readonly HookEventName[] = [
  'PreToolUse',
  'PermissionRequest',
  'PostToolUse',
  'PostToolUseFailure',
  'Notification',
  'UserPromptSubmit',
  'Stop',
  'SubagentStart',
  'SubagentStop',
  'PreCompact',
  'SessionStart',
  'SessionEnd',
  'TeammateIdle',
  'TaskCreated',
  'TaskCompleted',
];

/** Claude Code events with no counterpart here: accepted with a warning, never run (docs/TOOLS.md says why). */
const KNOWN_UNFIRED = new Set([
  'PostCompact',
  'PermissionDenied',
  'UserPromptExpansion',
  'ConfigChange',
  'CwdChanged',
  'FileChanged',
  'InstructionsLoaded',
  'Elicitation',
  'ElicitationResult',
  'Setup',
  'WorktreeCreate',
  'WorktreeRemove',
  'PostToolBatch',
  'StopFailure',
  'PreModelSwitch',
  'PostModelSwitch',
  'MessageDisplay',
  'DirectoryAdded',
]);

// Loose objects on purpose: Claude Code adds keys over time, and a user's settings must still load.
const HookCommandSchema = z.object({
  type: z.literal('command'),
  command: z.string().min(1, 'must not be empty'),
  args: z.array(z.string()).optional(),
  timeout: z.number().positive('must be a positive number of seconds').optional(),
  async: z.boolean().optional(),
  if: z.string().optional(),
  statusMessage: z.string().optional(),
});
const HookMatcherSchema = z.object({ matcher: z.string().optional(), hooks: z.array(z.unknown()) });

export interface LoadedHookSettings {
  settings: HookSettings;
  /** Every entry left out, and why, naming the file and the field. */
  problems: string[];
}

export interface ParseHookOptions {
  /** A plugin's folder: its hooks get `CLAUDE_PLUGIN_ROOT`. */
  pluginRoot?: string;
}

/** Validates a `hooks` object (event name → matchers); `source` prefixes every problem. */
export function parseHookSettings(
  value: unknown,
  source: string,
  options: ParseHookOptions = {},
): LoadedHookSettings {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { settings: {}, problems: [`${source}: must be an object of event names`] };
  }
  const settings: HookSettings = {};
  const problems: string[] = [];
  for (const [event, matchers] of Object.entries(value)) {
    if (!(HOOK_EVENTS as readonly string[]).includes(event)) {
      problems.push(unknownEvent(source, event));
      continue;
    }
    if (!Array.isArray(matchers)) {
      problems.push(`${source}.${event}: must be an array of { matcher, hooks } entries`);
      continue;
    }
    const valid = matchers.flatMap((m, i) => parseMatcher(m, `${source}.${event}[${i}]`, problems, options));
    if (valid.length > 0) settings[event as HookEventName] = valid;
  }
  return { settings, problems };
}

function unknownEvent(source: string, event: string): string {
  if (KNOWN_UNFIRED.has(event))
    return `${source}.${event}: a Claude Code event teamd does not fire (see docs/TOOLS.md); ignored`;
  return `${source}.${event}: not a hook event (known: ${HOOK_EVENTS.join(', ')}); ignored`;
}

function parseMatcher(
  value: unknown,
  where: string,
  problems: string[],
  options: ParseHookOptions,
): HookMatcher[] {
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
  const commands = hooks.flatMap((h, j) => parseCommand(h, `${where}.hooks[${j}]`, problems, options));
  if (commands.length === 0) return [];
  return [matcher === undefined ? { hooks: commands } : { matcher, hooks: commands }];
}

function parseCommand(
  value: unknown,
  where: string,
  problems: string[],
  options: ParseHookOptions,
): HookCommand[] {
  const type = typeof value === 'object' && value !== null ? (value as { type?: unknown }).type : undefined;
  if (type !== undefined && type !== 'command') {
    problems.push(
      `${where}.type: ${JSON.stringify(type)} hooks are not run by teamd (only "command"; see docs/TOOLS.md); ignored`,
    );
    return [];
  }
  const parsed = HookCommandSchema.safeParse(value);
  if (!parsed.success) {
    problems.push(...issues(where, parsed.error));
    return [];
  }
  const command: HookCommand = { type: 'command', command: parsed.data.command };
  const { args, timeout, async, statusMessage } = parsed.data;
  if (args !== undefined) command.args = args;
  if (timeout !== undefined) command.timeout = timeout;
  if (async !== undefined) command.async = async;
  if (parsed.data.if !== undefined) command.if = parsed.data.if;
  if (statusMessage !== undefined) command.statusMessage = statusMessage;
  if (options.pluginRoot !== undefined) command.pluginRoot = options.pluginRoot;
  return [command];
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
