/**
 * What the team spent, from the usage recorded in transcripts
 * (`.team/state/transcripts/<agent>/<session>.jsonl`).
 *
 * A finished run's `result` event is the record: usage per model, and
 * `total_cost_usd` as priced when the run happened. A run still going has only
 * its `assistant` events, each carrying one model call's usage; those are
 * priced per call with the current prices. Only depth-0 events count: a
 * subagent's spending is inside its parent's result. A run belongs to the task
 * in its events' `parent_id`; `mail:<id>` runs answered messages.
 */
import { basename, dirname, join, relative, sep } from 'node:path';
import { z } from 'zod';
import { costOf, type PriceOverrides } from '../model/pricing.js';
import { emptyUsage, type Usage } from '../model/types.js';
import { addUsage } from '../model/usage.js';
import {
  parseTranscriptText,
  sessionFileStats,
  transcriptAgents,
  transcriptsRoot,
  type SessionFileStat,
} from './transcript-view.js';
import { SessionListing } from './session-listing.js';
import { readSessionFromSync } from './transcript-files.js';

export const COST_GROUPINGS = ['teammate', 'task', 'model'] as const;
export type CostGrouping = (typeof COST_GROUPINGS)[number];

export interface TokenCounts {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
}

export interface CostRow {
  /** The teammate name, task id (`(messages)` / `(no task)` for other runs) or model name. */
  key: string;
  tokens: TokenCounts;
  costUsd: number;
  /** Runs (one `submitMessage` each) that spent in this row; a run using two models counts in both model rows. */
  runs: number;
}

export interface CostReport {
  by: CostGrouping;
  /** Dearest first. */
  rows: CostRow[];
  total: Omit<CostRow, 'key'>;
  /** Runs with no `result` yet (their cost is priced from their model calls). */
  running: number;
}

/** One model's share of one run. */
export interface Spend {
  run: string;
  agent: string;
  task: string | null;
  model: string;
  usage: Usage;
  costUsd: number;
  finished: boolean;
}

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

interface Session {
  agent: string;
  offset: number;
  /** The file's size and mtime when last read: an unchanged file is not opened again. */
  size: number;
  mtime: number;
  runs: number;
  finished: Spend[];
  open: Call[];
  openTask: string | null;
}

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
function openSpends(s: Session, file: string, prices: PriceOverrides): Spend[] {
  const byModel = new Map<string, { usage: Usage; costUsd: number }>();
  for (const c of s.open) {
    const prev = byModel.get(c.model) ?? { usage: emptyUsage(), costUsd: 0 };
    byModel.set(c.model, {
      usage: addUsage(prev.usage, c.usage),
      costUsd: prev.costUsd + costOf(c.model, c.usage, prices),
    });
  }
  const run = `${file}#${s.runs}`;
  return [...byModel].map(([model, v]) => ({
    run,
    agent: s.agent,
    task: s.openTask,
    model,
    ...v,
    finished: false,
  }));
}

/** Files read synchronously between two turns of the event loop (a first read of 20,000 sessions stays responsive). */
const READ_BATCH = 256;
const yieldToLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * Reads transcripts incrementally: each session file is read from where the
 * last call stopped (they are append-only), so `teamd top` can ask every
 * refresh without re-reading megabytes.
 */
export class TranscriptSpendReader {
  private readonly sessions = new Map<string, Session>();
  private readonly newest = new Map<string, number>();
  private readonly listings = new Map<string, SessionListing>();
  private readonly byAgent = new Map<string, { files: readonly SessionFileStat[]; spends: Spend[] }>();
  private last: { agents: string | null; spends: Spend[] } = { agents: null, spends: [] };
  /** Whether `changed` hints are arriving (a watcher on `.team/state` is up): see session-listing.ts. */
  hinted = false;

  /** Told of every event of the listings' own watchers (`watch`): a transcript was written. */
  onChange: (() => void) | null = null;

  /**
   * `sweepMs`: a long-lived reader keeps its listings (session-listing.ts),
   * swept whole that often; `watch`: each listing watches its folder for
   * hints (else `hinted` and `changed` say what a watcher outside saw).
   */
  constructor(
    private readonly repoRoot: string,
    private readonly prices: PriceOverrides = {},
    private readonly options: { sweepMs?: number; watch?: boolean } = {},
  ) {}

  /** Stops the listings' watchers. */
  close(): void {
    for (const l of this.listings.values()) l.close();
  }

  /**
   * Every run's spending per model, finished runs and running ones. A kept
   * listing (`sweepMs`) that did not change since the last call (the same
   * array: session-listing.ts) means no file of that agent changed, so its
   * spends are the last call's; nothing changed at all: the same array.
   */
  async spends(): Promise<Spend[]> {
    const parts: Spend[][] = [];
    let reused = true;
    const agents = transcriptAgents(this.repoRoot);
    for (const agent of agents) {
      const files = this.filesOf(agent);
      if (files.length) this.newest.set(agent, files.at(-1)!.mtime);
      const known = this.byAgent.get(agent);
      if (known?.files === files) {
        parts.push(known.spends);
        continue;
      }
      reused = false;
      const mine: Spend[] = [];
      let read = 0;
      for (const stat of files) {
        const s = this.refresh(stat);
        if (s.read && ++read % READ_BATCH === 0) await yieldToLoop();
        for (const spend of s.session.finished) mine.push(spend);
        if (s.session.open.length) mine.push(...openSpends(s.session, stat.file, this.prices));
      }
      if (known) this.forgetGone(known.files, files);
      this.byAgent.set(agent, { files, spends: mine });
      parts.push(mine);
    }
    const key = agents.join('\n');
    if (!reused || key !== this.last.agents) this.last = { agents: key, spends: parts.flat() };
    return this.last.spends;
  }

  /** Drops what was kept of sessions no longer listed (removed, or compressed under a new name). */
  private forgetGone(before: readonly SessionFileStat[], now: readonly SessionFileStat[]): void {
    if (this.options.sweepMs === undefined) return;
    const listed = new Set(now.map((f) => f.file));
    for (const f of before) if (!listed.has(f.file)) this.sessions.delete(f.file);
  }

  /** Sessions kept (for tests: bounded by the files listed). */
  get keptSessions(): number {
    return this.sessions.size;
  }

  /** A watcher saw `path` (under `.team/state/transcripts/<agent>/`) change. */
  changed(path: string): void {
    const rel = relative(transcriptsRoot(this.repoRoot), path).split(sep);
    if (rel.length === 2 && rel[0] !== '..') this.listings.get(rel[0]!)?.hint(rel[1]!);
  }

  private filesOf(agent: string): readonly SessionFileStat[] {
    const sweepMs = this.options.sweepMs;
    if (sweepMs === undefined) return sessionFileStats(this.repoRoot, agent);
    let listing = this.listings.get(agent);
    if (!listing) this.listings.set(agent, (listing = new SessionListing(join(transcriptsRoot(this.repoRoot), agent), sweepMs)));
    if (!this.options.watch) return listing.current(this.hinted);
    if (!listing.watching) listing.watch(() => this.onChange?.());
    return listing.current(listing.watching);
  }

  /** The mtime of the agent's newest transcript at the last `spends()` (its last model call or tool result). */
  newestWrite(agent: string): number | undefined {
    return this.newest.get(agent);
  }

  /** The session brought up to date with its file; `read`: the file was opened. */
  private refresh({ file, size, mtime }: SessionFileStat): { session: Session; read: boolean } {
    let s = this.sessions.get(file);
    if (!s) {
      s = { agent: basename(dirname(file)), offset: 0, size: -1, mtime: -1, runs: 0, finished: [], open: [], openTask: null };
      this.sessions.set(file, s);
    }
    if (size === s.size && mtime === s.mtime) return { session: s, read: false };
    s.size = size;
    s.mtime = mtime;
    const text = readSessionFromSync(file, s.offset);
    const end = text.lastIndexOf('\n') + 1;
    s.offset += Buffer.byteLength(text.slice(0, end));
    for (const line of parseTranscriptText(text.slice(0, end))) this.feed(s, file, line);
    return { session: s, read: true };
  }

  private feed(s: Session, file: string, line: Record<string, unknown>): void {
    if (typeof line.depth === 'number' && line.depth > 0) return;
    // Only the kind the line says is checked: a failed safeParse builds an error, and most lines are neither.
    if (line.type === 'assistant') {
      const call = AssistantLineSchema.safeParse(line);
      if (!call.success) return;
      s.open.push({ model: call.data.model, usage: call.data.usage });
      s.openTask = call.data.parent_id ?? null;
      return;
    }
    const result = line.type === 'result' ? ResultLineSchema.safeParse(line) : null;
    if (!result?.success) return;
    const run = `${file}#${s.runs}`;
    const task = result.data.parent_id ?? null;
    for (const part of splitResult(result.data.total_cost_usd, result.data.usage, this.prices)) {
      s.finished.push({ run, agent: s.agent, task, ...part, finished: true });
    }
    s.runs += 1;
    s.open = [];
  }
}


const tokensOf = (u: Usage): TokenCounts => ({
  input: u.input_tokens,
  output: u.output_tokens,
  cacheRead: u.cache_read_input_tokens,
  cacheWrite: u.cache_creation_input_tokens,
});

function taskKey(task: string | null): string {
  if (task === null) return '(no task)';
  return task.startsWith('mail:') ? '(messages)' : task;
}

const keyOf = (s: Spend, by: CostGrouping): string =>
  by === 'teammate' ? s.agent : by === 'model' ? s.model : taskKey(s.task);

/** Groups spending into a report (pure). */
export function groupSpends(spends: readonly Spend[], by: CostGrouping): CostReport {
  const rows = new Map<string, { usage: Usage; costUsd: number; runs: Set<string> }>();
  for (const s of spends) {
    const key = keyOf(s, by);
    const row = rows.get(key) ?? { usage: emptyUsage(), costUsd: 0, runs: new Set<string>() };
    rows.set(key, {
      usage: addUsage(row.usage, s.usage),
      costUsd: row.costUsd + s.costUsd,
      runs: row.runs.add(s.run),
    });
  }
  const all = spends.reduce((u, s) => addUsage(u, s.usage), emptyUsage());
  return {
    by,
    rows: [...rows]
      .map(([key, r]) => ({ key, tokens: tokensOf(r.usage), costUsd: r.costUsd, runs: r.runs.size }))
      .sort((a, b) => b.costUsd - a.costUsd || a.key.localeCompare(b.key)),
    total: {
      tokens: tokensOf(all),
      costUsd: spends.reduce((a, s) => a + s.costUsd, 0),
      runs: new Set(spends.map((s) => s.run)).size,
    },
    running: new Set(spends.filter((s) => !s.finished).map((s) => s.run)).size,
  };
}

/** Tokens and dollars per teammate, task or model, from every transcript of the repository. */
export async function costReport(
  repoRoot: string,
  by: CostGrouping = 'teammate',
  options: { prices?: PriceOverrides; reader?: TranscriptSpendReader } = {},
): Promise<CostReport> {
  const reader = options.reader ?? new TranscriptSpendReader(repoRoot, options.prices);
  const spends = await reader.spends();
  // The same spends as last time (a kept reader, nothing changed): the same report, not grouped again.
  const known = grouped.get(spends)?.get(by);
  if (known) return known;
  const report = groupSpends(spends, by);
  grouped.set(spends, (grouped.get(spends) ?? new Map<CostGrouping, CostReport>()).set(by, report));
  return report;
}

const grouped = new WeakMap<readonly Spend[], Map<CostGrouping, CostReport>>();

const HEAD = ['RUNS', 'TOKENS IN', 'OUT', 'CACHE READ', 'CACHE WRITE', 'COST USD'];

function cells(r: Omit<CostRow, 'key'>): string[] {
  const t = r.tokens;
  return [r.runs, t.input, t.output, t.cacheRead, t.cacheWrite].map(String).concat(r.costUsd.toFixed(4));
}

/** The report as a right-aligned table with a total line (for `teamd cost` and `teamd run`'s summary). */
export function formatCostReport(report: CostReport): string[] {
  if (!report.rows.length) return ['nothing spent yet (no transcripts with usage)'];
  const rows = [
    [report.by.toUpperCase(), ...HEAD],
    ...report.rows.map((r) => [r.key, ...cells(r)]),
    ['TOTAL', ...cells(report.total)],
  ];
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  const line = (r: string[]): string =>
    r.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  const out = rows.map(line);
  if (report.running)
    out.push(
      `(${report.running} run${report.running === 1 ? '' : 's'} still going: priced from ${report.running === 1 ? 'its' : 'their'} model calls so far)`,
    );
  return out;
}
