/**
 * Running totals of spending per teammate, task and model, changed by the
 * delta of the sessions that changed (issue 24): `teamd top` and the lead's
 * budget check read ~20,000 session transcripts, and re-summing every one of
 * them on each refresh was most of top's idle CPU. A session's share is taken
 * out before it is read again and put back after, so a refresh with one
 * changed transcript does work for that one.
 *
 * Dollars are summed exactly, in fixed point (`FIXED_BITS` bits below the
 * unit, as a bigint): taking a share out leaves no rounding behind however
 * long `top` runs, and the same spends give the same total in any order (a
 * kept reader and a fresh one agree to the last bit; a budget stops at the
 * same point). Each report rounds the exact sum once.
 */
import { emptyUsage, type Usage } from '../model/types.js';
import type { CostGrouping, CostReport, CostRow, Spend, TokenCounts } from './cost.js';

/** 2^-100 of a dollar: any cost a transcript can hold is exact well below a billionth of a cent. */
const FIXED_BITS = 100;
const SCALE = 2 ** FIXED_BITS;
/** Costs beyond this (a hostile transcript's 1e999) are clamped: the scaled value must stay finite. */
const LIMIT = 1e200;

const toFixed = (usd: number): bigint =>
  Number.isFinite(usd) ? BigInt(Math.round(Math.max(-LIMIT, Math.min(LIMIT, usd)) * SCALE)) : 0n;
const fromFixed = (fixed: bigint): number => Number(fixed) / SCALE;

/** What a set of spends adds to one row. */
interface Share {
  usage: Usage;
  cost: bigint;
  runs: number;
}

/** One session's (or any spends') shares of every row, the total and the runs still going. */
export interface Shares {
  rows: Record<CostGrouping, Map<string, Share>>;
  total: Share;
  running: number;
}

const emptyShare = (): Share => ({ usage: emptyUsage(), cost: 0n, runs: 0 });

function taskKey(task: string | null): string {
  if (task === null) return '(no task)';
  return task.startsWith('mail:') ? '(messages)' : task;
}

const keyOf = (s: Spend, by: CostGrouping): string =>
  by === 'teammate' ? s.agent : by === 'model' ? s.model : taskKey(s.task);

function addInto(into: Share, usage: Usage, cost: bigint, runs: number, sign: 1 | -1): void {
  const u = into.usage;
  u.input_tokens += sign * usage.input_tokens;
  u.output_tokens += sign * usage.output_tokens;
  u.cache_read_input_tokens += sign * usage.cache_read_input_tokens;
  u.cache_creation_input_tokens += sign * usage.cache_creation_input_tokens;
  into.cost += sign === 1 ? cost : -cost;
  into.runs += sign * runs;
}

/** Groups spends into shares (pure): a run counts once per row it spent in. */
export function sharesOf(spends: readonly Spend[]): Shares {
  const rows = { teammate: new Map<string, Share>(), task: new Map<string, Share>(), model: new Map<string, Share>() };
  const runsOf = new Map<string, Set<string>>();
  const total = emptyShare();
  const running = new Set<string>();
  for (const s of spends) {
    const cost = toFixed(s.costUsd);
    for (const by of ['teammate', 'task', 'model'] as const) {
      const key = keyOf(s, by);
      const row = rows[by].get(key) ?? emptyShare();
      rows[by].set(key, row);
      const seen = runsOf.get(`${by}\n${key}`) ?? new Set<string>();
      runsOf.set(`${by}\n${key}`, seen);
      addInto(row, s.usage, cost, seen.has(s.run) ? 0 : 1, 1);
      seen.add(s.run);
    }
    addInto(total, s.usage, cost, 0, 1);
    if (!s.finished) running.add(s.run);
  }
  total.runs = new Set(spends.map((s) => s.run)).size;
  return { rows, total, running: running.size };
}

const tokensOf = (u: Usage): TokenCounts => ({
  input: u.input_tokens,
  output: u.output_tokens,
  cacheRead: u.cache_read_input_tokens,
  cacheWrite: u.cache_creation_input_tokens,
});

const rowOf = (share: Share): Omit<CostRow, 'key'> => ({
  tokens: tokensOf(share.usage),
  costUsd: fromFixed(share.cost),
  runs: share.runs,
});

/** Totals kept across refreshes: `add` a session's shares, `add(…, -1)` to take them out again. */
export class SpendTotals {
  private readonly all: Shares = sharesOf([]);
  private readonly reports = new Map<CostGrouping, CostReport>();
  /** Counts every change: the same version, the same totals. */
  version = 0;

  add(shares: Shares, sign: 1 | -1 = 1): void {
    if (shares.total.runs === 0) return;
    for (const by of ['teammate', 'task', 'model'] as const) {
      const rows = this.all.rows[by];
      for (const [key, share] of shares.rows[by]) {
        const row = rows.get(key) ?? emptyShare();
        addInto(row, share.usage, share.cost, share.runs, sign);
        // A row holds at least one run while anything spent in it.
        if (row.runs > 0) rows.set(key, row);
        else rows.delete(key);
      }
    }
    addInto(this.all.total, shares.total.usage, shares.total.cost, shares.total.runs, sign);
    this.all.running += sign * shares.running;
    this.reports.clear();
    this.version += 1;
  }

  /** The report grouped `by` (kept until the next change). */
  report(by: CostGrouping): CostReport {
    const known = this.reports.get(by);
    if (known) return known;
    const report = reportOf(this.all, by);
    this.reports.set(by, report);
    return report;
  }
}

/** The report of shares grouped `by`: dearest first, then by key. */
export function reportOf(shares: Shares, by: CostGrouping): CostReport {
  return {
    by,
    rows: [...shares.rows[by]]
      .map(([key, share]) => ({ key, ...rowOf(share) }))
      .sort((a, b) => b.costUsd - a.costUsd || a.key.localeCompare(b.key)),
    total: rowOf(shares.total),
    running: shares.running,
  };
}
