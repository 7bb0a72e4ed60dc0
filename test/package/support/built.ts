/**
 * The built CLI (dist/cli/main.js) and whether it is fresh: `npm ci` builds
 * dist/ (the `prepare` script), so CI always has it; a stale local build is
 * a skip line in the tests that run it.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
export const MAIN = join(ROOT, 'dist', 'cli', 'main.js');

function newestIn(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestIn(path) : statSync(path).mtimeMs);
  }
  return newest;
}

/** Why the built CLI cannot be tested (missing, or older than src/), or null. */
export const staleBuild = (): string | null =>
  !existsSync(MAIN)
    ? 'no dist/: run npm run build'
    : statSync(MAIN).mtimeMs < newestIn(join(ROOT, 'src'))
      ? 'dist/ is older than src/: run npm run build'
      : null;
