import { writeFileSync } from 'node:fs';
import type { Reporter, TestModule } from 'vitest/node';

/**
 * Counts test cases at the end of a vitest run. scripts/test.mjs reads the
 * counts (VITEST_SUMMARY_FILE) and prints the closing `N passed, N failed` line
 * that CI reads; run alone, the reporter prints that line itself.
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>, errors: ReadonlyArray<unknown>): void {
    let passed = 0;
    let failed = errors.length;
    let skipped = 0;
    for (const mod of testModules) {
      if (mod.state() === 'failed' && [...mod.children.allTests()].length === 0) failed++;
      for (const test of mod.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') passed++;
        else if (state === 'failed') failed++;
        else skipped++;
      }
    }
    const file = process.env.VITEST_SUMMARY_FILE;
    if (file) writeFileSync(file, JSON.stringify({ passed, failed, skipped }));
    else console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
  }
}
