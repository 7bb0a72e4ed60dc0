import { describe, expect, it } from 'vitest';
import { ONE_SHOT_V8_FLAGS, tuneV8ForOneShot } from '../../src/cli/one-shot-v8.js';

describe('tuneV8ForOneShot', () => {
  it('keeps fetch’s WebAssembly parser in baseline code (no TurboFan job to join at exit)', () => {
    const set: string[] = [];
    tuneV8ForOneShot((flag) => set.push(flag));
    expect(set).toEqual(['--liftoff-only']);
    expect(ONE_SHOT_V8_FLAGS).toEqual(set);
  });
});
