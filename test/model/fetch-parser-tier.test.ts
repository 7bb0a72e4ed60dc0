import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { BASELINE_PARSER_FLAGS, DEFAULT_PARSER_FLAGS, fetchLoaded, keepFetchParserInBaseline, restoreParserFlags } from '../../src/model/fetch-parser-tier.js';

describe('fetch parser tier', () => {
  it('sets the baseline-parser flags once, and only in a process that asked for them', () => {
    const set: string[] = [];
    expect(fetchLoaded((f) => set.push(f))).toBe(false); // the daemon and other commands: V8's defaults
    expect(set).toEqual([]);
    keepFetchParserInBaseline();
    expect(fetchLoaded((f) => set.push(f))).toBe(true);
    expect(fetchLoaded((f) => set.push(f))).toBe(false);
    expect(set).toEqual(['--wasm-tiering-budget=2000000000', '--no-wasm-lazy-compilation']);
    expect(BASELINE_PARSER_FLAGS).toEqual(set);
  });

  it('puts the defaults back only after it set the flags (for the code cache, made at exit)', () => {
    const set: string[] = [];
    keepFetchParserInBaseline();
    fetchLoaded(() => undefined); // applied (or already, by the test above)
    expect(restoreParserFlags((f) => set.push(f))).toBe(true);
    expect(restoreParserFlags((f) => set.push(f))).toBe(false);
    expect(set).toEqual([...DEFAULT_PARSER_FLAGS]);
    const nameOf = (f: string): string => f.split('=')[0]!.replace(/^--no-/, '--');
    expect(DEFAULT_PARSER_FLAGS.map(nameOf)).toEqual(BASELINE_PARSER_FLAGS.map(nameOf));
  });

  it("DEFAULT_PARSER_FLAGS are this node's V8 defaults", () => {
    const options = execFileSync(process.execPath, ['--v8-options'], { encoding: 'utf8' });
    for (const flag of DEFAULT_PARSER_FLAGS) expect(options).toContain(`default: ${flag}`);
  });
});
