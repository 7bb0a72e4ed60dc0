import { defineConfig } from 'vitest/config';

/**
 * `npm run test:interop`: teamd against the real Claude Code CLI (installed on
 * demand into .cache/claude-code/, run offline against the fake Messages API).
 * Not part of `npm test`: the install is large and needs the npm registry.
 */
export default defineConfig({
  test: {
    include: ['test/interop/**/*.test.ts'],
    testTimeout: 300_000,
    hookTimeout: 600_000,
    pool: 'forks',
    maxWorkers: 1,
    fileParallelism: false,
    reporters: ['default', './test/support/summary-reporter.ts'],
  },
});
