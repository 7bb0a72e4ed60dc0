/**
 * `npm pack` ships what `files` says, checked quickly: a dry run without
 * scripts (no build) lists the tarball against dist/ as built and the tracked
 * files of the other entries. The real pack, install and examples run is
 * test/faults/full/package-install.test.ts.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { ROOT } from './support/examples.js';
import { expectedTarball, filesEntries, packedPaths } from './support/pack.js';

const built = existsSync(join(ROOT, 'dist', 'index.js'));

let listed: Set<string> | undefined;

/** One dry run for both tests (npm takes seconds to start). */
function dryRun(): Set<string> {
  if (listed) return listed;
  const out = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
    cwd: ROOT,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, npm_config_update_notifier: 'false' },
  });
  listed = packedPaths(out).paths;
  return listed;
}

describe('npm pack --dry-run', () => {
  test.skipIf(!built)('the tarball holds exactly what `files` says (no dist/: run npm run build)', () => {
    expect([...dryRun()].sort()).toEqual([...expectedTarball()].sort());
  });

  test('nothing outside `files` ships: no sources, tests or configs', () => {
    const roots = [...filesEntries(), 'package.json', 'README.md'];
    const stray = [...dryRun()].filter((p) => !roots.some((r) => p === r || p.startsWith(`${r}/`)));
    expect(stray).toEqual([]);
    for (const p of dryRun()) expect(p, p).not.toMatch(/^(src|test|bench|scripts|web)\/|\.tsbuildinfo$/);
  });
});
