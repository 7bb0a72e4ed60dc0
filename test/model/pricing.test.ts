import { describe, expect, it } from 'vitest';
import { PRICES, UsageLedger, costOf, priceOf, usageOf } from '../../src/model/index.js';

const million = (partial: Parameters<typeof usageOf>[0]) => usageOf(partial);

describe('prices', () => {
  it('matches model ids by the longest prefix, dated and provider-prefixed ids included', () => {
    expect(priceOf('claude-opus-5-5')).toBe(PRICES['claude-opus-5-5']);
    expect(priceOf('claude-opus-4-1-20250805')).toBe(PRICES['claude-opus-4']);
    expect(priceOf('claude-opus-4-6')).toBe(PRICES['claude-opus-4-6']);
    expect(priceOf('claude-sonnet-4-5-20250929')).toBe(PRICES['claude-sonnet']);
    expect(priceOf('us.anthropic.claude-haiku-4-5-20251001-v1:0')).toBe(PRICES['claude-haiku-4-5']);
    expect(priceOf('gpt-something')).toBeUndefined();
    expect(priceOf('scripted:demo.json')).toBeUndefined();
  });

  it('prices every token kind', () => {
    const usage = million({
      input_tokens: 1_000_000,
      output_tokens: 1_000_000,
      cache_read_input_tokens: 1_000_000,
      cache_creation_input_tokens: 1_000_000,
    });
    expect(costOf('claude-sonnet-5-5', usage)).toBeCloseTo(2 + 10 + 0.1 + 2.5, 10);
    expect(costOf('claude-opus-4-7', million({ output_tokens: 2000 }))).toBeCloseTo(0.05, 10);
    expect(costOf('unknown-model', usage)).toBe(0);
  });

  it('applies the long-prompt band per call', () => {
    const small = million({ input_tokens: 100_000, output_tokens: 1000 });
    const large = million({ input_tokens: 60_000, cache_read_input_tokens: 50_000, output_tokens: 1000 });
    expect(costOf('claude-haiku-5-5', small)).toBeCloseTo(0.1 * 0.1 + 0.0005, 10);
    expect(costOf('claude-haiku-5-5', large)).toBeCloseTo(0.06 * 0.5 + 0.05 * 0.05 + 0.001 * 2.5, 10);
  });

  it('lets overrides win, by longest prefix, with cache prices defaulting from the input price', () => {
    const overrides = {
      'claude-sonnet': { input: 1, output: 2 },
      'claude-sonnet-5-5': { input: 10, output: 20, cacheRead: 0 },
    };
    expect(priceOf('claude-sonnet-5-5-20261001', overrides)).toEqual({
      input: 10,
      output: 20,
      cacheRead: 0,
      cacheWrite: 12.5,
    });
    expect(priceOf('claude-sonnet-4-6', overrides)).toEqual({
      input: 1,
      output: 2,
      cacheRead: 0.1,
      cacheWrite: 1.25,
    });
    expect(
      costOf('scripted:demo.json', million({ input_tokens: 1_000_000 }), {
        scripted: { input: 3, output: 4 },
      }),
    ).toBe(3);
  });
});

describe('UsageLedger', () => {
  it('sums usage and cost per model and in total', () => {
    const ledger = new UsageLedger({ 'scripted:': { input: 1, output: 1 } });
    const cost = ledger.add('claude-opus-5-5', million({ input_tokens: 1000, output_tokens: 100 }));
    ledger.add('claude-opus-5-5', million({ input_tokens: 500, cache_read_input_tokens: 2000 }));
    ledger.add('claude-haiku-5-5', million({ output_tokens: 10 }));
    ledger.add('mystery', million({ input_tokens: 7 }));
    expect(cost).toBeCloseTo((1000 * 4 + 100 * 20) / 1e6, 12);
    const snap = ledger.snapshot();
    expect(snap.usage['claude-opus-5-5']).toEqual(
      million({ input_tokens: 1500, output_tokens: 100, cache_read_input_tokens: 2000 }),
    );
    expect(snap.costUsd['claude-opus-5-5']).toBeCloseTo((1500 * 4 + 100 * 20 + 2000 * 0.2) / 1e6, 12);
    expect(snap.totalCostUsd).toBeCloseTo(
      snap.costUsd['claude-opus-5-5']! + snap.costUsd['claude-haiku-5-5']!,
      12,
    );
    expect(snap.unpriced).toEqual(['mystery']);
    expect(ledger.totalUsage.input_tokens).toBe(1507);
    expect(structuredClone(snap)).toEqual(snap);
  });

  it('merges another ledger, keeping its costs', () => {
    const parent = new UsageLedger();
    const child = new UsageLedger({ 'claude-haiku': { input: 100, output: 100 } });
    parent.add('claude-haiku-5-5', million({ input_tokens: 1000 }));
    child.add('claude-haiku-5-5', million({ input_tokens: 1000 }));
    parent.merge(child);
    expect(parent.snapshot().usage['claude-haiku-5-5']!.input_tokens).toBe(2000);
    expect(parent.totalCostUsd).toBeCloseTo((1000 * 0.1) / 1e6 + (1000 * 100) / 1e6, 12);
  });
});
