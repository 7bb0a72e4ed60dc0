import { describe, expect, it } from 'vitest';
import { BASELINE_PARSER_FLAGS, fetchLoaded, keepFetchParserInBaseline } from '../../src/model/fetch-parser-tier.js';

describe('fetch parser tier', () => {
  it('sets the baseline-parser flags once, and only in a process that asked for them', () => {
    const set: string[] = [];
    expect(fetchLoaded((f) => set.push(f))).toBe(false); // the daemon and other commands: V8's defaults
    expect(set).toEqual([]);
    keepFetchParserInBaseline();
    expect(fetchLoaded((f) => set.push(f))).toBe(true);
    expect(fetchLoaded((f) => set.push(f))).toBe(false);
    expect(set).toEqual(['--wasm-tiering-budget=2000000000']);
    expect(BASELINE_PARSER_FLAGS).toEqual(set);
  });
});
