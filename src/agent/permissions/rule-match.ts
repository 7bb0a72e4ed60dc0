/**
 * Whether a rule applies to a call. Shell commands are matched per simple
 * command, so `Bash(npm test:*)` allows `npm test && npm run lint` only if
 * `npm run lint` is allowed too, while `Bash(rm:*)` in deny catches
 * `ls && rm -rf x` and `timeout 5 rm x`.
 */
import { classifyCommand, type CommandPlace } from '../../tools/bash-classify.js';
import { effectiveCommand } from '../../tools/bash-words.js';
import { parseShell } from '../../tools/shell-words.js';
import { readStrict } from '../../tools/bash-strict/reader.js';
import { compilePathGlob } from './path-glob.js';
import type { ToolCallView } from './tool-call.js';
import type { PermissionRule } from './types.js';

const FAMILY: Record<string, ToolCallView['kind']> = { Edit: 'edit', Read: 'read' };

/** The rule names this tool (directly, through its family, or as an MCP server prefix). */
export function ruleNamesTool(rule: PermissionRule, view: ToolCallView): boolean {
  if (rule.tool === view.name || FAMILY[rule.tool] === view.kind) return true;
  if (!view.name.startsWith('mcp__')) return false;
  if (rule.tool.endsWith('*')) return view.name.startsWith(rule.tool.slice(0, -1));
  return view.name.startsWith(`${rule.tool}__`);
}

/** Deny and ask rules: the rule hits if it matches the call or any part of a compound command. */
export function ruleHits(rule: PermissionRule, view: ToolCallView): boolean {
  if (!ruleNamesTool(rule, view)) return false;
  if (rule.content === null) return true;
  if (view.kind === 'shell') {
    const segments = commandSegments(view.command ?? '');
    if (segments === null) return rawMatches(rule.content, view.command ?? '');
    return segments.some(
      (s) =>
        commandMatches(rule.content as string, s.words) ||
        commandMatches(rule.content as string, effectiveCommand(s.words)),
    );
  }
  return contentMatches(rule.content, view);
}

/**
 * Allow rules: a shell command is allowed only when every part of it is
 * either allowed by some rule or read-only. Returns the deciding rule, or null.
 * A line outside the subset the strict reader understands (`$((…))`, process
 * substitution, loops, a write redirection, …) can hide a command no rule
 * sees, so only a rule naming the whole line exactly allows it.
 */
export function allowingRule(
  rules: PermissionRule[],
  view: ToolCallView,
  place: CommandPlace,
): PermissionRule | null {
  const named = rules.filter((r) => ruleNamesTool(r, view));
  if (named.length === 0) return null; // no rule names the tool: nothing can allow it (and a command needs no parse)
  const whole = named.find((r) => r.content === null);
  if (whole !== undefined) return whole;
  if (view.kind !== 'shell') return named.find((r) => contentMatches(r.content as string, view)) ?? null;
  const command = view.command ?? '';
  const segments = readStrict(command).ok ? commandSegments(command) : null;
  if (segments === null) return named.find((r) => r.content === command.trim()) ?? null;
  let decisive: PermissionRule | null = null;
  for (const segment of segments) {
    const rule = named.find((r) => commandMatches(r.content as string, segment.words));
    if (rule !== undefined) decisive ??= rule;
    else if (!classifyCommand(segment.text, place).readOnly) return null;
  }
  return decisive;
}

function contentMatches(content: string, view: ToolCallView): boolean {
  if (content.startsWith('domain:')) {
    const domain = content.slice('domain:'.length);
    return view.domain !== undefined && (view.domain === domain || view.domain.endsWith(`.${domain}`));
  }
  if (view.target !== undefined) return compilePathGlob(content).matches(view.target.abs, view.target.rel);
  return false;
}

interface Segment {
  words: string[];
  text: string;
}

/** Every simple command, including those inside $(…) and `…`; null when the line does not parse. */
function commandSegments(command: string): Segment[] | null {
  const parsed = parseShell(command);
  if (parsed.error !== null) return null;
  const nested = parsed.substitutions.map(commandSegments);
  if (nested.some((n) => n === null)) return null;
  const own = parsed.commands
    .filter((c) => c.words.length > 0)
    .map((c) => ({ words: c.words, text: c.text }));
  return [...own, ...nested.flat().filter((s): s is Segment => s !== null)];
}

/** `npm test:*` / `npm test *`: these words first; otherwise exactly these words; `*` anything. */
function commandMatches(content: string, words: string[]): boolean {
  if (content === '*') return true;
  const prefix = prefixOf(content);
  const ruleWords = wordsOf(prefix ?? content);
  if (prefix !== null) return ruleWords.length <= words.length && ruleWords.every((w, i) => w === words[i]);
  return ruleWords.length === words.length && ruleWords.every((w, i) => w === words[i]);
}

/** For a line the reader cannot parse: plain text comparison. */
function rawMatches(content: string, command: string): boolean {
  const prefix = prefixOf(content);
  return (
    content === '*' || (prefix === null ? command.trim() === content : command.trim().startsWith(prefix))
  );
}

function prefixOf(content: string): string | null {
  return content.endsWith(':*') || content.endsWith(' *') ? content.slice(0, -2) : null;
}

function wordsOf(text: string): string[] {
  const parsed = parseShell(text);
  return parsed.error === null && parsed.commands.length === 1
    ? (parsed.commands[0]?.words ?? [])
    : text.trim().split(/\s+/);
}
