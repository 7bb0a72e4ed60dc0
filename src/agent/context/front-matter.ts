/**
 * Markdown with YAML front matter, as Claude Code's role files
 * (`.claude/agents/*.md`) and teamd's memory files use it. Only the subset
 * those files need is read, without a YAML dependency: `key: value` lines
 * with plain, 'single'- or "double"-quoted scalars, inline lists `[a, b]`,
 * block lists (`- item` lines), block scalars (`|` keeps lines, `>` folds
 * them), and `#` comment lines.
 */
import type { Outcome } from '../../store/types.js';

export type FrontMatterValue = string | string[];

export interface FrontMatterDocument {
  data: Record<string, FrontMatterValue>;
  body: string;
}

const FENCE = /^---\s*$/;
const KEY_LINE = /^([A-Za-z_][A-Za-z0-9_-]*)\s*:\s*(.*)$/;

function unquote(raw: string): string {
  const text = raw.trim();
  if (text.length >= 2 && text.startsWith('"') && text.endsWith('"')) {
    try {
      return JSON.parse(text) as string;
    } catch {
      return text.slice(1, -1);
    }
  }
  if (text.length >= 2 && text.startsWith("'") && text.endsWith("'"))
    return text.slice(1, -1).replace(/''/g, "'");
  return text.replace(/\s+#.*$/, '');
}

function inlineList(raw: string): string[] {
  const inner = raw.trim().slice(1, -1).trim();
  return inner === ''
    ? []
    : inner
        .split(',')
        .map(unquote)
        .filter((item) => item !== '');
}

/** The indented lines after a key (a block list or a block scalar); returns them and where they stop. */
function indentedBlock(lines: string[], from: number): { block: string[]; next: number } {
  let next = from;
  while (next < lines.length && (/^\s+\S/.test(lines[next]!) || lines[next]!.trim() === '')) next++;
  return { block: lines.slice(from, next), next };
}

function blockValue(head: string, block: string[]): FrontMatterValue {
  const items = block.filter((l) => l.trim() !== '');
  if (head === '' && items.every((l) => l.trim().startsWith('- ')))
    return items.map((l) => unquote(l.trim().slice(2)));
  const indent = Math.min(...items.map((l) => l.length - l.trimStart().length));
  const text = block
    .map((l) => l.slice(indent))
    .join('\n')
    .trimEnd();
  return head.startsWith('>') ? text.replace(/([^\n])\n(?=[^\n])/g, '$1 ') : text;
}

function valueOf(head: string, block: string[]): FrontMatterValue {
  if (head === '' || /^[|>][+-]?$/.test(head)) return blockValue(head, block);
  if (head.startsWith('[') && head.endsWith(']')) return inlineList(head);
  // a plain scalar may go on over indented lines: they fold into one line
  return [unquote(head), ...block.map((l) => l.trim())].filter((part) => part !== '').join(' ');
}

function parseData(
  lines: string[],
  firstLine: number,
  file: string,
): Outcome<Record<string, FrontMatterValue>> {
  const data: Record<string, FrontMatterValue> = {};
  for (let i = 0; i < lines.length;) {
    const line = lines[i]!;
    if (line.trim() === '' || line.trim().startsWith('#')) {
      i++;
      continue;
    }
    const match = KEY_LINE.exec(line);
    if (!match)
      return {
        ok: false,
        error: `${file}:${firstLine + i}: expected "key: value", got ${JSON.stringify(line)}`,
      };
    const [, key, rest] = match as unknown as [string, string, string];
    const { block, next } = indentedBlock(lines, i + 1);
    data[key] = valueOf(rest.trim(), block);
    i = next;
  }
  return { ok: true, value: data };
}

/** Splits and parses a document; a file without front matter has empty data. Errors name the file and line. */
export function parseFrontMatter(text: string, file: string): Outcome<FrontMatterDocument> {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  if (!FENCE.test(lines[0] ?? '')) return { ok: true, value: { data: {}, body: text.trim() } };
  const end = lines.findIndex((l, i) => i > 0 && FENCE.test(l));
  if (end === -1)
    return { ok: false, error: `${file}: the front matter opened on line 1 is never closed with ---` };
  const data = parseData(lines.slice(1, end), 2, file);
  if (!data.ok) return data;
  return {
    ok: true,
    value: {
      data: data.value,
      body: lines
        .slice(end + 1)
        .join('\n')
        .trim(),
    },
  };
}

/** A field as one string (a list is joined with ", "); undefined when absent. */
export function fieldText(data: Record<string, FrontMatterValue>, key: string): string | undefined {
  const value = data[key];
  return Array.isArray(value) ? value.join(', ') : value;
}

/** A field as a list: a YAML list, or a comma-separated string (`tools: Read, Grep`). */
export function fieldList(data: Record<string, FrontMatterValue>, key: string): string[] | undefined {
  const value = data[key];
  if (value === undefined) return undefined;
  const items = Array.isArray(value) ? value : value.split(',');
  return items.map((item) => item.trim()).filter((item) => item !== '');
}

/** Writes front matter that `parseFrontMatter` (and YAML) reads back: every value a JSON string. */
export function renderFrontMatter(data: Record<string, string>, body: string): string {
  const lines = Object.entries(data).map(([key, value]) => `${key}: ${JSON.stringify(value)}`);
  return `---\n${lines.join('\n')}\n---\n\n${body.trim()}\n`;
}
