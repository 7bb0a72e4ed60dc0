/**
 * Transcripts for people. `.team/state/transcripts/<agent>/<session>.jsonl`
 * holds a header line, then one AgentEvent per line; this module finds those
 * files and renders their lines readably: assistant text, each tool call with
 * its input summarised and its result trimmed, errors marked, and the tokens
 * and dollars of every model call and every run. Every part taken from the
 * file is made terminal-safe before any colour is added: a line may be
 * printed as it is (printStyledLine).
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { costOf, type PriceOverrides } from '../model/pricing.js';
import { emptyUsage, type ContentBlock, type Usage } from '../model/types.js';
import { addUsage } from '../model/usage.js';
import { ID_PATTERN } from '../store/types.js';
import { toolResultText } from '../model/types.js';
import { terminalSafe, terminalSafeLine } from './terminal-safe.js';
import { sessionNames } from './transcript-files.js';

/** One parsed transcript line: a header or an AgentEvent, kept loose (files may come from older versions). */
export type TranscriptLine = Record<string, unknown> & { type?: string };

export const transcriptsRoot = (repoRoot: string): string => join(repoRoot, '.team', 'state', 'transcripts');

/** The agents that have a transcripts folder. */
export function transcriptAgents(repoRoot: string): string[] {
  const root = transcriptsRoot(repoRoot);
  if (!existsSync(root)) return [];
  return readdirSync(root, { withFileTypes: true })
    .filter((d) => d.isDirectory() && ID_PATTERN.test(d.name))
    .map((d) => d.name)
    .sort();
}

/** A session file with the stamp it was listed with. */
export interface SessionFileStat {
  file: string;
  size: number;
  mtime: number;
}

/**
 * The session files of one agent (`.jsonl`, and `.jsonl.gz` once compressed:
 * read them with readSessionText) with their size and mtime, oldest first;
 * one stat each, files gone meanwhile left out.
 */
export function sessionFileStats(repoRoot: string, agent: string): SessionFileStat[] {
  const dir = join(transcriptsRoot(repoRoot), agent);
  if (!ID_PATTERN.test(agent) || !existsSync(dir)) return [];
  const out: SessionFileStat[] = [];
  for (const name of sessionNames(readdirSync(dir))) {
    const file = join(dir, name);
    const st = statSync(file, { throwIfNoEntry: false });
    if (st) out.push({ file, size: st.size, mtime: st.mtimeMs });
  }
  return out.sort((a, b) => a.mtime - b.mtime || a.file.localeCompare(b.file));
}

/** The session files of one agent, oldest first (by modification time). */
export function sessionFiles(repoRoot: string, agent: string): string[] {
  return sessionFileStats(repoRoot, agent).map((x) => x.file);
}

/** Every complete, parseable line of `text`; a torn last line (being written) is skipped. */
export function parseTranscriptText(text: string): TranscriptLine[] {
  const out: TranscriptLine[] = [];
  for (const raw of text.split('\n')) {
    if (!raw.trim()) continue;
    try {
      const parsed: unknown = JSON.parse(raw);
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) out.push(parsed as TranscriptLine);
    } catch {
      // a line being written right now
    }
  }
  return out;
}

export interface TranscriptRenderOptions {
  /** ANSI colours (errors red, costs dim). Off for pipes and NO_COLOR. */
  color?: boolean;
  /** The team's price overrides, to price each model call. */
  prices?: PriceOverrides;
}

const UsageSchema = z.object({
  input_tokens: z.number(),
  output_tokens: z.number(),
  cache_read_input_tokens: z.number().default(0),
  cache_creation_input_tokens: z.number().default(0),
});

/** What a `result` line must hold to be rendered (older or foreign lines may lack parts). */
const ResultLineSchema = z.object({
  subtype: z.string(),
  is_error: z.boolean().default(false),
  num_turns: z.number().optional(),
  total_cost_usd: z.number().optional(),
  duration_ms: z.number().optional(),
  usage: z.record(z.string(), UsageSchema).default({}),
  error: z.string().optional(),
});

type Style = 'red' | 'green' | 'yellow' | 'dim' | 'bold' | 'cyan';
const CODES: Record<Style, [number, number]> = {
  red: [31, 39],
  green: [32, 39],
  yellow: [33, 39],
  cyan: [36, 39],
  dim: [2, 22],
  bold: [1, 22],
};

const cut = (s: string, max: number): string => (s.length > max ? `${s.slice(0, max - 1)}…` : s);
const tokens = (n: number): string =>
  n >= 10_000 ? `${(n / 1000).toFixed(0)}k` : n >= 1000 ? `${(n / 1000).toFixed(1)}k` : String(n);
const dollars = (n: number): string => `$${n.toFixed(4)}`;

/** A message's content as blocks (a string is one text block). */
export function blocksOf(content: unknown): ContentBlock[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  return Array.isArray(content) ? (content as ContentBlock[]) : [];
}

function resultText(b: Extract<ContentBlock, { type: 'tool_result' }>): string {
  return toolResultText(b);
}

/** The first `max` non-empty lines of `text`, each cut, and how many were left out. */
function headLines(text: string, max: number, width: number): string[] {
  const lines = text.split('\n').filter((l) => l.trim());
  const shown = lines.slice(0, max).map((l) => cut(l, width));
  if (lines.length > max) shown.push(`… (+${lines.length - max} lines)`);
  return shown;
}

const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const lineCount = (v: unknown): number => (typeof v === 'string' && v ? v.split('\n').length : 0);
const oneLine = (s: string, max: number): string => cut(s.replace(/\s+/g, ' ').trim(), max);

/** The few fields that say what a call does, per tool; other tools show their short fields. */
const taskCreate = (i: Record<string, unknown>): string => `${i.id ? `${str(i.id)}: ` : ''}${oneLine(str(i.subject), 90)}`;
const taskChange = (i: Record<string, unknown>): string =>
  `${str(i.id)}${i.status ? ` → ${str(i.status)}` : ''}${i.reason ? `: ${oneLine(str(i.reason), 80)}` : ''}`;

const TOOL_INPUT: Record<string, (i: Record<string, unknown>) => string> = {
  read: (i) => `${str(i.file_path)}${typeof i.offset === 'number' ? `:${i.offset}` : ''}`,
  write: (i) => `${str(i.file_path)} (${lineCount(i.content)} lines)`,
  edit: (i) =>
    `${str(i.file_path)} (−${lineCount(i.old_string)} +${lineCount(i.new_string)} lines${i.replace_all ? ', all' : ''})`,
  bash: (i) => oneLine(str(i.command), 120),
  glob: (i) => `${str(i.pattern)}${i.path ? ` in ${str(i.path)}` : ''}`,
  grep: (i) => `/${str(i.pattern)}/${i.path ? ` in ${str(i.path)}` : ''}${i.glob ? ` (${str(i.glob)})` : ''}`,
  send_message: (i) =>
    i.type === 'shutdown_response'
      ? `shutdown ${str(i.request_id)} ${i.approve === true ? 'approved' : 'rejected'}`
      : i.type === 'plan_approval_request'
        ? `plan: ${oneLine(str(i.content), 90)}`
        : `→ ${str(i.to)}: ${oneLine(str(i.content), 90)}`,
  team: (i) =>
    [str(i.do), i.to ? `→ ${str(i.to)}` : '', i.id ? str(i.id) : '', i.text ? oneLine(str(i.text), 90) : '']
      .filter(Boolean)
      .join(' '),
  task_write: (i) => (i.subject === undefined ? taskChange(i) : taskCreate(i)),
  task_list: (i) => (i.id === undefined ? (i.status === undefined ? '' : str(i.status)) : str(i.id)),
  task_create: (i) => taskCreate(i),
  task_update: (i) => taskChange(i),
  task_get: (i) => str(i.id),
  todo_write: (i) => `${Array.isArray(i.todos) ? i.todos.length : 0} items`,
};

/** One line saying what a tool call does: `bash npm test`, `edit src/a.ts (−2 +5 lines)`. */
export function summariseToolInput(tool: string, input: unknown): string {
  if (!input || typeof input !== 'object') return '';
  const fields = input as Record<string, unknown>;
  const known = TOOL_INPUT[tool];
  if (known) return known(fields);
  const short = Object.entries(fields).filter(([, v]) => ['string', 'number', 'boolean'].includes(typeof v));
  return oneLine(short.map(([k, v]) => `${k}=${String(v)}`).join(' '), 120);
}

function usageLine(usage: Usage): string {
  const cache =
    usage.cache_read_input_tokens || usage.cache_creation_input_tokens
      ? ` (cache read ${tokens(usage.cache_read_input_tokens)}, write ${tokens(usage.cache_creation_input_tokens)})`
      : '';
  return `${tokens(usage.input_tokens)} in${cache}, ${tokens(usage.output_tokens)} out`;
}

/**
 * Renders a transcript line by line. It keeps what later lines need: the tool
 * name of each tool_use id (so a result says which call it answers) and the
 * turn count of the current run.
 */
export class TranscriptRenderer {
  private readonly toolNames = new Map<string, string>();
  private turn = 0;

  constructor(private readonly options: TranscriptRenderOptions = {}) {}

  /** Readable lines for one transcript line; empty for lines not worth showing. */
  render(line: TranscriptLine): string[] {
    switch (line.type) {
      case 'header':
        return [
          this.paint(
            'bold',
            `── session ${String(line.session_id)} · ${String(line.agent)} · ${String(line.model)} · ${String(line.created)}`,
          ),
        ];
      case 'user':
        return this.user(line);
      case 'assistant':
        return this.assistant(line);
      case 'system':
        return this.system(line);
      case 'result':
        return this.result(line);
      default:
        return [];
    }
  }

  /** `text` made terminal-safe, then coloured (when colour is on). */
  private paint(style: Style, text: string): string {
    const safe = terminalSafeLine(text);
    if (!this.options.color) return safe;
    const [on, off] = CODES[style];
    return `\x1b[${on}m${safe}\x1b[${off}m`;
  }

  private user(line: TranscriptLine): string[] {
    const out: string[] = [];
    for (const b of blocksOf((line.message as { content?: unknown } | undefined)?.content)) {
      if (b.type === 'text') out.push(...headLines(b.text, 6, 200).map((l) => this.paint('cyan', `> ${l}`)));
      if (b.type === 'tool_result') out.push(...this.toolResult(b));
    }
    return out;
  }

  private toolResult(b: Extract<ContentBlock, { type: 'tool_result' }>): string[] {
    const tool = this.toolNames.get(b.tool_use_id) ?? 'tool';
    const [first = '(empty)', ...rest] = headLines(
      resultText(b).replace(/\t/g, '  '),
      b.is_error ? 6 : 3,
      160,
    );
    if (b.is_error)
      return [
        this.paint('red', `  ✘ ${tool} failed: ${first}`),
        ...rest.map((l) => this.paint('red', `    ${l}`)),
      ];
    return [`  ↳ ${first}`, ...rest.map((l) => `    ${l}`)].map(terminalSafeLine);
  }

  private assistant(line: TranscriptLine): string[] {
    const out: string[] = [];
    for (const b of blocksOf((line.message as { content?: unknown } | undefined)?.content)) {
      if (b.type === 'thinking' || b.type === 'redacted_thinking') out.push(this.paint('dim', thinkingLine(b)));
      if (b.type === 'text' && b.text.trim()) out.push(terminalSafe(b.text.trimEnd()));
      if (b.type === 'tool_use') {
        this.toolNames.set(b.id, b.name);
        out.push(this.paint('bold', `● ${b.name}`) + ` ${terminalSafeLine(summariseToolInput(b.name, b.input))}`);
      }
    }
    this.turn += 1;
    const usage = line.usage as Usage | undefined;
    const model = typeof line.model === 'string' ? line.model : '';
    if (usage && typeof usage.input_tokens === 'number') {
      const cost = costOf(model, usage, this.options.prices);
      out.push(this.paint('dim', `  · turn ${this.turn}: ${usageLine(usage)}, ${dollars(cost)}`));
    }
    return out;
  }

  private system(line: TranscriptLine): string[] {
    if (line.subtype === 'init') {
      const parent = typeof line.parent_id === 'string' ? line.parent_id : null;
      const what =
        parent === null ? '' : parent.startsWith('mail:') ? ' for new mail' : ` for task ${parent}`;
      return [this.paint('dim', `· run started${what} in ${String(line.cwd)}`)];
    }
    if (line.subtype === 'api_retry') return [this.paint('yellow', `· ${apiRetryLine(line)}`)];
    const style: Style = line.subtype === 'retry' ? 'yellow' : 'dim';
    return [this.paint(style, `· ${cut(String(line.message ?? line.subtype), 200)}`)];
  }

  private result(line: TranscriptLine): string[] {
    const turns = this.turn;
    this.turn = 0;
    const parsed = ResultLineSchema.safeParse(line);
    if (!parsed.success) return [this.paint('red', '✘ a result line that does not parse')];
    const r = parsed.data;
    const cost = r.total_cost_usd === undefined ? '$?' : dollars(r.total_cost_usd);
    const sum = Object.values(r.usage).reduce(addUsage, emptyUsage());
    const seconds = r.duration_ms === undefined ? '' : `, ${(r.duration_ms / 1000).toFixed(1)} s`;
    const head = `${r.subtype} after ${r.num_turns ?? turns} turns: ${usageLine(sum)}, ${cost}${seconds}`;
    if (!r.is_error) return [this.paint('green', `✔ ${head}`)];
    return [
      this.paint('red', `✘ ${head}`),
      ...(r.error ? [this.paint('red', `  ${cut(r.error, 300)}`)] : []),
    ];
  }
}

/** Readable lines for one transcript line on its own (no tool names from earlier lines, no colour). */
export function renderTranscriptLine(line: TranscriptLine): string[] {
  return new TranscriptRenderer().render(line);
}

/** A thinking block, collapsed to one line: its size, never its text (a log stays readable). */
export function thinkingLine(b: { type: 'thinking'; thinking: string } | { type: 'redacted_thinking' }): string {
  if (b.type === 'redacted_thinking') return '∴ thinking (redacted)';
  const words = b.thinking.split(/\s+/).filter(Boolean).length;
  return `∴ thinking (${words} word${words === 1 ? '' : 's'}, collapsed)`;
}

/** `system/api_retry`: which retry, why, and the wait. */
function apiRetryLine(line: TranscriptLine): string {
  const status = typeof line.error_status === 'number' ? ` ${line.error_status}` : '';
  const of = typeof line.max_retries === 'number' ? ` of ${line.max_retries}` : '';
  const why = cut(typeof line.error === 'string' ? line.error : '', 160);
  return `model call failed${status} (${why}); retry ${String(line.attempt)}${of} in ${String(line.retry_delay_ms)} ms`;
}
