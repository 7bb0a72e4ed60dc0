import { defineConfig } from 'vitest/config';

/**
 * `npm run test:faults`: the fault-injection suite (test/faults/) at the sizes
 * of issue 9 — FAULTS=full scales every test up from the reduced sizes that
 * run inside `npm test`. One file at a time: each one already loads both cores.
 * FAULTS_SEED=<n> replays a run's random choices.
 */
export default defineConfig({
  test: {
    include: ['test/faults/**/*.test.ts'],
    env: { FAULTS: 'full' },
    testTimeout: 3_600_000,
    hookTimeout: 120_000,
    pool: 'forks',
    maxWorkers: 1,
    fileParallelism: false,
    reporters: ['default', './test/support/summary-reporter.ts'],
  },
});
