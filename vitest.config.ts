import { defineConfig } from 'vitest/config';

const EXCLUDE = ['test/faults/full/**', 'test/interop/**', 'node_modules/**'];
// Files of test/store/ but its process races only touch their own temp folders and restore what they change,
// so they share one module graph per worker (isolate: false): 27 files, 89 s -> 57 s back to back on the loaded
// 2-core machine, most of it the import of src/ each file repeated in a fresh process.
const SHARED_GRAPH = ['test/store/*.test.ts', 'test/store/!(race)/**/*.test.ts'];

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
