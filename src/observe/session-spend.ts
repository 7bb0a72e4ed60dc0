/**
 * One session file's spending, kept and brought up to date as the file grows
 * (see cost.ts for what counts). The file is read on from where the last read
 * stopped; a file truncated or replaced since is read again whole
 * (transcript-files.ts's marks).
 */
import { basename, dirname } from 'node:path';
import { z } from 'zod';
import { costOf, type PriceOverrides } from '../model/pricing.js';
import { emptyUsage, type Usage } from '../model/types.js';
import { addUsage } from '../model/usage.js';
import type { Spend } from './cost.js';
import { readSessionOnSync, type ReadMark } from './transcript-files.js';
import { parseTranscriptText, type SessionFileStat } from './transcript-view.js';

const UsageSchema = z.object({
  input_tokens: z.number(),
  output_tokens: z.number(),
  cache_read_input_tokens: z.number().default(0),
  cache_creation_input_tokens: z.number().default(0),
});
const Traced = { parent_id: z.string().nullable().optional(), depth: z.number().optional() };
const AssistantLineSchema = z.object({
  type: z.literal('assistant'),
  model: z.string(),
  usage: UsageSchema,
  ...Traced,
});
const ResultLineSchema = z.object({
  type: z.literal('result'),
  total_cost_usd: z.number(),
  usage: z.record(z.string(), UsageSchema),
  ...Traced,
});

interface Call {
  model: string;
  usage: Usage;
}

export interface SessionSpend {
  file: string;
  agent: string;
  mark: ReadMark | null;
  /** The file's size and mtime when last read: an unchanged file is not opened again. */
  size: number;
  mtime: number;
  runs: number;
  finished: Spend[];
  open: Call[];
  openTask: string | null;
}

/**
 * What a kept session holds is sized to it (issue 24: `teamd top` keeps
 * ~20,000 of them): no list of its own while it is empty (one frozen list
 * shared; `pushed` makes its own), a list copied to its length once read
 * (a list grown by `push` keeps room for 16), and one string per agent or
 * model name, not one per session (`shared`).
 */
const NONE: readonly never[] = Object.freeze([]);
export const noItems = <T>(): T[] => NONE as never[];

/** `list` with `item` at its end: the same list, or a new one when it was the shared empty one. */
export function pushed<T>(list: T[], item: T): T[] {
  if ((list as readonly unknown[]) === NONE) return [item];
  list.push(item);
  return list;
}

/** `list` at its length (the shared empty one when empty). */
export const exact = <T>(list: T[]): T[] => (list.length === 0 ? noItems() : list.slice());

/** Names seen, each kept once (bounded: past the bound a name is used as it is). */
const NAMES = new Map<string, string>();
const MAX_NAMES = 4_096;

/** One string per distinct agent or model name (a parsed line or path makes a new one each time). */
export function shared(name: string): string {
  const known = NAMES.get(name);
  if (known !== undefined) return known;
  if (NAMES.size < MAX_NAMES && name.length <= 200) NAMES.set(name, name);
  return name;
}

export const newSessionSpend = (file: string): SessionSpend => ({
  file,
  agent: shared(basename(dirname(file))),
  mark: null,
  size: -1,
  mtime: -1,
  runs: 0,
  finished: noItems(),
  open: noItems(),
  openTask: null,
});

/** Splits a run's recorded total over its models, by what each model's usage costs at today's prices. */
function splitResult(
  total: number,
  usage: Record<string, Usage>,
  prices: PriceOverrides,
): { model: string; usage: Usage; costUsd: number }[] {
  const models = Object.entries(usage);
  const weights = models.map(([m, u]) => costOf(m, u, prices));
  const tokenWeights = models.map(
    ([, u]) => u.input_tokens + u.output_tokens + u.cache_read_input_tokens + u.cache_creation_input_tokens,
  );
  const basis = weights.some((w) => w > 0)
    ? weights
    : tokenWeights.some((w) => w > 0)
      ? tokenWeights
      : models.map(() => 1);
  const sum = basis.reduce((a, b) => a + b, 0);
  return models.map(([model, u], i) => ({ model, usage: u, costUsd: sum ? (total * basis[i]!) / sum : 0 }));
}

/** The open run's calls, summed per model and priced per call. */
function openSpends(s: SessionSpend, prices: PriceOverrides): Spend[] {
  const byModel = new Map<string, { usage: Usage; costUsd: number }>();
  for (const c of s.open) {
    const prev = byModel.get(c.model) ?? { usage: emptyUsage(), costUsd: 0 };
    byModel.set(c.model, {
      usage: addUsage(prev.usage, c.usage),
      costUsd: prev.costUsd + costOf(c.model, c.usage, prices),
    });
  }
  const run = `${s.file}#${s.runs}`;
  return [...byModel].map(([model, v]) => ({ run, agent: s.agent, task: s.openTask, model, ...v, finished: false }));
}

/** Every spend of the session: its finished runs' and the open run's so far. */
export const sessionSpends = (s: SessionSpend, prices: PriceOverrides): Spend[] =>
  s.open.length ? [...s.finished, ...openSpends(s, prices)] : s.finished;

/** Brings the session up to date with its file (listed as `stat`); false when it had not changed. */
export function readSessionSpend(s: SessionSpend, stat: SessionFileStat, prices: PriceOverrides): boolean {
  if (stat.size === s.size && stat.mtime === s.mtime) return false;
  s.size = stat.size;
  s.mtime = stat.mtime;
  const read = readSessionOnSync(s.file, s.mark);
  if (read.whole) Object.assign(s, { runs: 0, finished: noItems(), open: noItems(), openTask: null });
  s.mark = read.mark;
  for (const line of parseTranscriptText(read.text)) feed(s, line, prices);
  s.finished = exact(s.finished);
  return true;
}

function feed(s: SessionSpend, line: Record<string, unknown>, prices: PriceOverrides): void {
  if (typeof line.depth === 'number' && line.depth > 0) return;
  // Only the kind the line says is checked: a failed safeParse builds an error, and most lines are neither.
  if (line.type === 'assistant') {
    const call = AssistantLineSchema.safeParse(line);
    if (!call.success) return;
    s.open = pushed(s.open, { model: shared(call.data.model), usage: call.data.usage });
    s.openTask = call.data.parent_id ?? null;
    return;
  }
  const result = line.type === 'result' ? ResultLineSchema.safeParse(line) : null;
  if (!result?.success) return;
  const run = `${s.file}#${s.runs}`;
  const task = result.data.parent_id ?? null;
  for (const part of splitResult(result.data.total_cost_usd, result.data.usage, prices)) {
    s.finished = pushed(s.finished, { run, agent: s.agent, task, ...part, model: shared(part.model), finished: true });
  }
  s.runs += 1;
  s.open = noItems();
}
