/**
 * Validates a `hooks` object (Claude Code's shape: event name → matchers →
 * handlers). Each entry stands alone: a bad one is a problem naming its field
 * and is left out; the rest load. Keys Claude Code added that teamd does not
 * use are accepted silently; an unknown handler type is a warning.
 */
import { z } from 'zod';
import type { HookEventName, HookHandler, HookMatcher, HookSettings } from './types.js';

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
const common = {
  timeout: z.number().positive('must be a positive number of seconds').optional(),
  if: z.string().optional(),
  statusMessage: z.string().optional(),
  once: z.boolean().optional(),
};
const onFailure = z.enum(['continue', 'block'], 'must be "continue" or "block"').optional();
const HookCommandSchema = z.object({
  type: z.literal('command'),
  command: z.string().min(1, 'must not be empty'),
  args: z.array(z.string()).optional(),
  shell: z.enum(['bash', 'powershell'], 'must be "bash" or "powershell"').optional(),
  onFailure,
  async: z.boolean().optional(),
  asyncRewake: z.boolean().optional(),
  ...common,
});
const HookHttpSchema = z.object({
  type: z.literal('http'),
  url: z.url('must be a URL (http://127.0.0.1:PORT/path)'),
  headers: z.record(z.string(), z.string()).optional(),
  allowedEnvVars: z.array(z.string()).optional(),
  onFailure,
  ...common,
});
const HookPromptSchema = z.object({
  type: z.literal('prompt'),
  prompt: z.string().min(1, 'must not be empty'),
  model: z.string().min(1).optional(),
  continueOnBlock: z.boolean().optional(),
  ...common,
});
const HookAgentSchema = z.object({
  type: z.literal('agent'),
  prompt: z.string().min(1, 'must not be empty'),
  model: z.string().min(1).optional(),
  ...common,
});
const HookMcpToolSchema = z.object({
  type: z.literal('mcp_tool'),
  server: z.string().min(1, 'must name a configured MCP server'),
  tool: z.string().min(1, "must name the server's tool"),
  input: z.record(z.string(), z.unknown()).optional(),
  // Claude Code reads any value other than "continue" as "block" for this type.
  onFailure: z.preprocess((v) => (v === undefined || v === 'continue' ? v : 'block'), onFailure),
  ...common,
});
const HandlerSchema = z.discriminatedUnion('type', [
  HookCommandSchema,
  HookHttpSchema,
  HookPromptSchema,
  HookAgentSchema,
  HookMcpToolSchema,
]);
const HANDLER_TYPES = ['command', 'http', 'prompt', 'agent', 'mcp_tool'];
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
): HookHandler[] {
  const type = typeof value === 'object' && value !== null ? (value as { type?: unknown }).type : undefined;
  if (typeof type === 'string' && !HANDLER_TYPES.includes(type)) {
    problems.push(`${where}.type: ${JSON.stringify(type)} is not a hook type (${HANDLER_TYPES.join(', ')}); ignored`);
    return [];
  }
  const parsed = HandlerSchema.safeParse(value);
  if (!parsed.success) {
    problems.push(...issues(where, parsed.error));
    return [];
  }
  const handler = dropUndefined(parsed.data) as HookHandler;
  if (handler.type === 'agent' && where.includes('.PermissionRequest[')) {
    problems.push(`${where}.type: "agent" hooks cannot answer PermissionRequest (Claude Code refuses them too); ignored`);
    return [];
  }
  if (options.pluginRoot !== undefined) handler.pluginRoot = options.pluginRoot;
  return [handler];
}

/** Zod's output keeps keys whose value is undefined out of a loose object only if absent; drop them for clean equality. */
function dropUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
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
