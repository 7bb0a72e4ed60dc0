/**
 * Markdown with YAML front matter, as Claude Code's role files
 * (`.claude/agents/**.md`) and teamd's memory files use it. The front matter
 * is read with the `yaml` package (YAML 1.2), so multi-line, folded and
 * quoted scalars, block and flow lists, comments, anchors, CRLF and non-ASCII
 * text all work.
 *
 * Like Claude Code, a front matter that is not valid YAML only because a
 * top-level value holds `: ` or ` #` unquoted (the usual
 * `description: Use this agent when… Examples: <example>user: "…"` line) is
 * read a second time with those values quoted. Anything else that YAML refuses
 * is an error naming the file and the line. The parser never throws.
 */
import { parseDocument, type Document } from 'yaml';
import { textDepthProblem } from '../../store/json-bounds.js';
import type { Outcome } from '../../store/types.js';

/** The parsed fields: whatever the YAML holds (strings, numbers, lists, maps). */
export type FrontMatterData = Record<string, unknown>;

export interface FrontMatterDocument {
  data: FrontMatterData;
  body: string;
  /** True when the YAML was only readable with its top-level plain values quoted (see above). */
  lenient?: boolean;
}

const FENCE = /^---[ \t]*$/;
/** An alias bomb (`&a [*a, *a, …]`) expands at most this many times. */
const MAX_ALIASES = 100;
/**
 * Real front matter is a few KB. Past these bounds the YAML parser's recursion can exhaust the
 * stack or the heap (a 20 000-deep `[[[…]]]` killed the process), so they are refused unparsed.
 */
const MAX_FRONT_MATTER_CHARS = 256 * 1024;
const MAX_FLOW_DEPTH = 64;

interface YamlRead {
  data?: FrontMatterData;
  error?: string;
}

function firstError(doc: Document, file: string, firstLine: number): string {
  const error = doc.errors[0]!;
  const line = (error.linePos?.[0].line ?? 1) + firstLine - 1;
  const what = error.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '');
  return `${file}:${line}: not valid YAML (${error.code}): ${what}`;
}

function readYaml(yamlText: string, file: string, firstLine: number): YamlRead {
  const doc = parseDocument(yamlText, { uniqueKeys: false, prettyErrors: true });
  if (doc.errors.length > 0) return { error: firstError(doc, file, firstLine) };
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: MAX_ALIASES });
  } catch (error) {
    return { error: `${file}:${firstLine}: not valid YAML: ${(error as Error).message}` };
  }
  if (value === null || value === undefined) return { data: {} };
  if (typeof value !== 'object' || Array.isArray(value))
    return {
      error: `${file}:${firstLine}: the front matter must be "key: value" lines, not a ${Array.isArray(value) ? 'list' : 'single value'}`,
    };
  return { data: value as FrontMatterData };
}

const TOP_KEY = /^([A-Za-z_][\w-]*):[ \t]+(\S.*)$/;
const NOT_PLAIN = /^["'[{|>&*!%@`]/;

/** Top-level plain values (with their indented continuation lines) as double-quoted scalars. */
export function quotePlainValues(lines: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const match = TOP_KEY.exec(lines[i]!);
    if (!match || NOT_PLAIN.test(match[2]!)) {
      out.push(lines[i]!);
      continue;
    }
    const parts = [match[2]!.trim()];
    while (i + 1 < lines.length && /^[ \t]+\S/.test(lines[i + 1]!) && !/^[ \t]+- /.test(lines[i + 1]!))
      parts.push(lines[++i]!.trim());
    out.push(`${match[1]}: ${JSON.stringify(parts.join(' '))}`);
  }
  return out;
}

function split(text: string): { yaml: string[]; body: string } | { unclosed: true } | null {
  const lines = text.replace(/^\uFEFF/, '').split(/\r\n|\r|\n/);
  if (!FENCE.test(lines[0] ?? '')) return null;
  const end = lines.findIndex((l, i) => i > 0 && FENCE.test(l));
  if (end === -1) return { unclosed: true };
  return {
    yaml: lines.slice(1, end),
    body: lines
      .slice(end + 1)
      .join('\n')
      .trim(),
  };
}

/** Splits and parses a document; a file without front matter has empty data. Errors name the file and line. */
export function parseFrontMatter(text: string, file: string): Outcome<FrontMatterDocument> {
  try {
    const parts = split(text);
    if (parts === null) return { ok: true, value: { data: {}, body: text.replace(/\r\n?/g, '\n').trim() } };
    if ('unclosed' in parts)
      return { ok: false, error: `${file}: the front matter opened on line 1 is never closed with ---` };
    const yamlText = parts.yaml.join('\n');
    if (yamlText.length > MAX_FRONT_MATTER_CHARS)
      return { ok: false, error: `${file}: the front matter is over ${MAX_FRONT_MATTER_CHARS} characters` };
    const deep = textDepthProblem(yamlText, MAX_FLOW_DEPTH);
    if (deep !== undefined) return { ok: false, error: `${file}: the front matter is ${deep}` };
    const strict = readYaml(yamlText, file, 2);
    if (strict.data) return { ok: true, value: { data: strict.data, body: parts.body } };
    const retry = readYaml(quotePlainValues(parts.yaml).join('\n'), file, 2);
    if (retry.data) return { ok: true, value: { data: retry.data, body: parts.body, lenient: true } };
    return { ok: false, error: strict.error! };
  } catch (error) {
    // the yaml package is not expected to throw here; if it does, it is still this file's problem
    return { ok: false, error: `${file}: the front matter could not be read: ${(error as Error).message}` };
  }
}

const scalarText = (value: unknown): string | undefined =>
  typeof value === 'string'
    ? value
    : typeof value === 'number' || typeof value === 'boolean'
      ? String(value)
      : undefined;

/** A field as one string (a list is joined with ", "); undefined when absent or not text. */
export function fieldText(data: FrontMatterData, key: string): string | undefined {
  const value = data[key];
  if (Array.isArray(value))
    return value
      .map(scalarText)
      .filter((v) => v !== undefined)
      .join(', ');
  return scalarText(value);
}

/** Splits `Read, Bash(git add:*, git commit:*)` at the commas outside parentheses. */
export function splitCommaList(text: string): string[] {
  const items: string[] = [];
  let depth = 0;
  let current = '';
  for (const ch of text) {
    if (ch === ',' && depth === 0) {
      items.push(current);
      current = '';
      continue;
    }
    if (ch === '(') depth++;
    if (ch === ')') depth = Math.max(0, depth - 1);
    current += ch;
  }
  items.push(current);
  return items.map((item) => item.trim()).filter((item) => item !== '');
}

/** A field as a list: a YAML list, or a comma-separated string (`tools: Read, Grep`). */
export function fieldList(data: FrontMatterData, key: string): string[] | undefined {
  const value = data[key];
  if (value === undefined || value === null) return undefined;
  if (Array.isArray(value)) return value.flatMap((item) => splitCommaList(scalarText(item) ?? ''));
  const text = scalarText(value);
  return text === undefined ? undefined : splitCommaList(text);
}

/** Writes front matter that `parseFrontMatter` (and YAML) reads back: every value a JSON string. */
export function renderFrontMatter(data: Record<string, string>, body: string): string {
  const lines = Object.entries(data).map(([key, value]) => `${key}: ${JSON.stringify(value)}`);
  return `---\n${lines.join('\n')}\n---\n\n${body.trim()}\n`;
}
