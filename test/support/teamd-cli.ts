/**
 * How a test runs the real `teamd` CLI in its own process. The built,
 * bundled CLI (dist/cli/main.js) starts in about a quarter of the time tsx
 * takes to load src/cli/main.ts (0.2 s against 0.9 s idle, 2.5 s on a loaded
 * 2-core machine), and it is the same code whenever it is newer than every
 * file of src/ (`npm ci` builds it: the `prepare` script). A stale or
 * missing build falls back to tsx on src/, so a test never runs old code;
 * TEAMD_TEST_CLI=src forces tsx on src/ (to compare, or to debug src/).
 */
import { join } from 'node:path';
import { MAIN as BUILT, ROOT, staleBuild } from '../package/support/built.js';
import { TSX_LOADER } from './race/spawn-ts.js';

/** The CLI's TypeScript entry point. */
export const CLI_SOURCE = join(ROOT, 'src', 'cli', 'main.ts');

let fresh: boolean | undefined;
/** Whether dist/cli/main.js is newer than every file of src/ (checked once per test process). */
export function builtCliIsFresh(): boolean {
  fresh ??= process.env.TEAMD_TEST_CLI !== 'src' && staleBuild() === null;
  return fresh;
}

/** The arguments to `process.execPath` that run `teamd`: the fresh build, else tsx on src/. */
export function teamdArgs(...args: string[]): string[] {
  return builtCliIsFresh() ? [BUILT, ...args] : ['--import', TSX_LOADER, CLI_SOURCE, ...args];
}
