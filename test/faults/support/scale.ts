/**
 * One suite, two sizes. `npm test` runs the reduced sizes (the whole faults
 * folder in well under a minute of work); `npm run test:faults` sets
 * FAULTS=full (vitest.faults.config.ts) and the same tests run at the sizes of
 * issue 9. FAULTS_SEED replays a run: every random choice comes from it.
 */
export const FULL = process.env.FAULTS === 'full';

/** `full` under `npm run test:faults`, `reduced` inside `npm test`. */
export const sized = <T>(full: T, reduced: T): T => (FULL ? full : reduced);

/** The seed of this run (printed by tests that use it, so a failure can be replayed). */
export const SEED = Number(process.env.FAULTS_SEED ?? 0x7ea3d) >>> 0;

/** A small seeded generator (mulberry32): the same seed gives the same faults. */
export function seededRandom(seed: number = SEED): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A timeout for a test that scales with its size (vitest's per-test timeout). */
export const budget = (fullMs: number, reducedMs: number): number => sized(fullMs, reducedMs);
