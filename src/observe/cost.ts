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
import type { PriceOverrides } from '../model/pricing.js';
import type { Usage } from '../model/types.js';
import { TranscriptSpendReader } from './spend-reader.js';
import { reportOf, sharesOf } from './spend-totals.js';
import { terminalSafeLine } from './terminal-safe.js';

export { TranscriptSpendReader } from './spend-reader.js';

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

/** Groups spending into a report (pure; the same sums as a reader's kept totals: spend-totals.ts). */
export function groupSpends(spends: readonly Spend[], by: CostGrouping): CostReport {
  return reportOf(sharesOf(spends), by);
}

/** Tokens and dollars per teammate, task or model, from every transcript of the repository. */
export async function costReport(
  repoRoot: string,
  by: CostGrouping = 'teammate',
  options: { prices?: PriceOverrides; reader?: TranscriptSpendReader } = {},
): Promise<CostReport> {
  // A kept reader that saw no change hands back the same report object.
  return (options.reader ?? new TranscriptSpendReader(repoRoot, options.prices)).report(by);
}

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
    // A key is a teammate or task name from a transcript: one cell, terminal-safe.
    ...report.rows.map((r) => [terminalSafeLine(r.key), ...cells(r)]),
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
