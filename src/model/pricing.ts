/**
 * Model prices, in USD per million tokens, and the ledger that sums usage and
 * cost per model. Prices change: this table is the one place to update, and a
 * team config can override any entry (`prices` in `.team/config.json`).
 * Source: platform.claude.com pricing page, 5-minute cache writes, as of 2026-10.
 */
import type { Usage } from './types.js';
import { addUsage, usageOf } from './usage.js';

export interface ModelPrice {
  input: number;
  output: number;
  /** Cache hits (`cache_read_input_tokens`). */
  cacheRead: number;
  /** Cache writes (`cache_creation_input_tokens`), 5-minute TTL. */
  cacheWrite: number;
  /** A dearer band for calls whose prompt (input + cache read + cache write) exceeds `tokens`. */
  above?: { tokens: number; price: Omit<ModelPrice, 'above'> };
}

/** As in the team config: cache prices default to 0.1× and 1.25× the input price. */
export interface PriceOverride {
  input: number;
  output: number;
  cacheRead?: number;
  cacheWrite?: number;
}
/** Keyed by model name or name prefix; the longest matching key wins. */
export type PriceOverrides = Record<string, PriceOverride>;

const price = (input: number, output: number, cacheRead: number, cacheWrite: number): ModelPrice => ({
  input,
  output,
  cacheRead,
  cacheWrite,
});

/** Keys are model-id prefixes; the longest prefix of a model id wins, so dated ids match too. */
export const PRICES: Readonly<Record<string, ModelPrice>> = {
  'claude-fable-5-2': price(10, 50, 0.25, 12.5),
  'claude-fable-5-1': price(10, 50, 0.25, 12.5),
  'claude-fable-5': price(10, 50, 1, 12.5),
  'claude-fable': price(10, 50, 0.25, 12.5),
  'claude-mythos-5-2': price(10, 50, 0.25, 12.5),
  'claude-mythos-5-1': price(10, 50, 0.25, 12.5),
  'claude-mythos-5': price(10, 50, 1, 12.5),
  'claude-mythos': price(10, 50, 0.25, 12.5),
  'claude-opus-5-5': price(4, 20, 0.2, 5),
  'claude-opus-5': price(5, 25, 0.5, 6.25),
  'claude-opus-4-8': price(5, 25, 0.5, 6.25),
  'claude-opus-4-7': price(5, 25, 0.5, 6.25),
  'claude-opus-4-6': price(5, 25, 0.5, 6.25),
  'claude-opus-4-5': price(5, 25, 0.5, 6.25),
  'claude-opus-4': price(15, 75, 1.5, 18.75),
  'claude-opus': price(5, 25, 0.5, 6.25),
  'claude-3-opus': price(15, 75, 1.5, 18.75),
  'claude-sonnet-5-5': price(2, 10, 0.1, 2.5),
  'claude-sonnet-5': price(2, 10, 0.2, 2.5),
  'claude-sonnet': price(3, 15, 0.3, 3.75),
  'claude-3-7-sonnet': price(3, 15, 0.3, 3.75),
  'claude-3-5-sonnet': price(3, 15, 0.3, 3.75),
  'claude-haiku-5-5': {
    ...price(0.1, 0.5, 0.01, 0.125),
    above: { tokens: 100_000, price: price(0.5, 2.5, 0.05, 0.625) },
  },
  'claude-haiku-4-5': price(1, 5, 0.1, 1.25),
  'claude-haiku': price(1, 5, 0.1, 1.25),
  'claude-3-5-haiku': price(0.8, 4, 0.08, 1),
  'claude-3-haiku': price(0.25, 1.25, 0.03, 0.3),
};

export function longestPrefix(keys: Iterable<string>, name: string): string | undefined {
  let best: string | undefined;
  for (const key of keys) {
    if (name.startsWith(key.toLowerCase()) && (best === undefined || key.length > best.length)) best = key;
  }
  return best;
}

/** `us.anthropic.claude-sonnet-4-5-v1:0` → `claude-sonnet-4-5-v1:0`: provider prefixes do not change the price. */
export const claudeId = (model: string): string => {
  const lower = model.toLowerCase();
  const at = lower.indexOf('claude-');
  return at > 0 ? lower.slice(at) : lower;
};

const fromOverride = (o: PriceOverride): ModelPrice => ({
  input: o.input,
  output: o.output,
  cacheRead: o.cacheRead ?? o.input * 0.1,
  cacheWrite: o.cacheWrite ?? o.input * 1.25,
});

/** The price of `model`: an override first, then the table; undefined when neither knows it. */
export function priceOf(model: string, overrides: PriceOverrides = {}): ModelPrice | undefined {
  for (const name of [model.toLowerCase(), claudeId(model)]) {
    const key = longestPrefix(Object.keys(overrides), name);
    if (key !== undefined) return fromOverride(overrides[key]!);
  }
  const key = longestPrefix(Object.keys(PRICES), claudeId(model));
  return key === undefined ? undefined : PRICES[key];
}

/** USD for one call's usage; 0 for a model with no known price. */
export function costOf(model: string, usage: Usage, overrides?: PriceOverrides): number {
  const found = priceOf(model, overrides);
  if (!found) return 0;
  const prompt = usage.input_tokens + usage.cache_read_input_tokens + usage.cache_creation_input_tokens;
  const p = found.above && prompt > found.above.tokens ? found.above.price : found;
  const micro =
    usage.input_tokens * p.input +
    usage.output_tokens * p.output +
    usage.cache_read_input_tokens * p.cacheRead +
    usage.cache_creation_input_tokens * p.cacheWrite;
  return micro / 1_000_000;
}

/** A plain-object view of a ledger (crosses worker_threads, fits a `result` event). */
export interface LedgerSnapshot {
  usage: Record<string, Usage>;
  costUsd: Record<string, number>;
  totalCostUsd: number;
  /** Models used that have no price (their cost counts as 0). */
  unpriced: string[];
}

/** Sums usage and cost per model name. Each call is priced on its own (price bands are per call). */
export class UsageLedger {
  readonly #usage = new Map<string, Usage>();
  readonly #cost = new Map<string, number>();

  constructor(private readonly prices: PriceOverrides = {}) {}

  /** Adds one call's usage; returns that call's cost. */
  add(model: string, usage: Usage): number {
    const cost = costOf(model, usage, this.prices);
    this.#record(model, usage, cost);
    return cost;
  }

  /** Adds another ledger's totals (e.g. a subagent's), keeping its costs. */
  merge(other: UsageLedger | LedgerSnapshot): void {
    const snap = other instanceof UsageLedger ? other.snapshot() : other;
    for (const [model, usage] of Object.entries(snap.usage))
      this.#record(model, usage, snap.costUsd[model] ?? 0);
  }

  get totalCostUsd(): number {
    let sum = 0;
    for (const cost of this.#cost.values()) sum += cost;
    return sum;
  }

  /** All models together. */
  get totalUsage(): Usage {
    let sum = usageOf();
    for (const usage of this.#usage.values()) sum = addUsage(sum, usage);
    return sum;
  }

  snapshot(): LedgerSnapshot {
    return {
      usage: Object.fromEntries([...this.#usage].map(([m, u]) => [m, { ...u }])),
      costUsd: Object.fromEntries(this.#cost),
      totalCostUsd: this.totalCostUsd,
      unpriced: [...this.#usage.keys()].filter((m) => !priceOf(m, this.prices)),
    };
  }

  #record(model: string, usage: Usage, cost: number): void {
    this.#usage.set(model, addUsage(this.#usage.get(model) ?? usageOf(), usage));
    this.#cost.set(model, (this.#cost.get(model) ?? 0) + cost);
  }
}
