import { defineConfig } from 'vitest/config';

const EXCLUDE = ['test/faults/full/**', 'test/interop/**', 'node_modules/**'];
// Unit files that only touch their own temp folders and restore what they change share one module graph per
// worker (isolate: false), saving the import of src/ each repeated in a fresh process. Measured back to back on
// the loaded 2-core machine: test/store/ but its process races, 27 files, 89 s -> 57 s; test/cron/ but the
// crash test, test/config/, test/notify/, 12 files, 35 s -> 22 s. Everything else stays isolated.
const SHARED_GRAPH = [
  'test/store/*.test.ts',
  'test/store/!(race)/**/*.test.ts',
  'test/cron/**/!(crash).test.ts',
  'test/config/**/*.test.ts',
  'test/notify/**/*.test.ts',
];

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    maxWorkers: 2,
    setupFiles: ['./test/support/no-ci-env.ts'],
    reporters: ['default', './test/support/summary-reporter.ts'],
    projects: [
      {
        extends: true,
        test: { name: 'isolated', include: ['test/**/*.test.ts', 'test/**/*.test.tsx'], exclude: [...EXCLUDE, ...SHARED_GRAPH] },
      },
      { extends: true, test: { name: 'shared-graph', include: SHARED_GRAPH, exclude: EXCLUDE, isolate: false } },
    ],
  },
});
