/**
 * `teamd top` keeps V8's young generation at its starting size from the
 * process's start (src/cli/main.ts, src/dashboard/young-generation.ts): set
 * later, in the dashboard, the load of top's modules and its first read had
 * already grown it to 16 MB, ~14 MB of RSS on the soak's repository (issue
 * 24). Other commands keep V8's defaults. Checked on the built CLI with a
 * preloaded probe that allocates at exit and reports the young generation.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, it } from 'vitest';
import { MAIN, staleBuild } from './support/built.js';

const PROBE = fileURLToPath(new URL('./support/young-probe.cjs', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'teamd-young-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
spawnSync('git', ['init', '-q'], { cwd: dir });
spawnSync(process.execPath, [MAIN, 'init'], { cwd: dir });

/** The young generation's size (MB) after the probe's allocation at the end of `teamd <args>`. */
function youngAfter(...args: string[]): number {
  const r = spawnSync(process.execPath, ['--require', PROBE, MAIN, ...args], { cwd: dir, encoding: 'utf8' });
  expect(r.status, r.stderr).toBe(0);
  const bytes = Number(/YOUNG (\d+)/.exec(r.stderr)?.[1]);
  expect(bytes).toBeGreaterThan(0);
  return bytes / 2 ** 20;
}

it('teamd top (here its plain status, not on a terminal) runs with the young generation kept small; teamd status does not', (ctx) => {
  const skip = staleBuild();
  if (skip) return ctx.skip(skip);
  expect(youngAfter('top')).toBeLessThanOrEqual(4);
  expect(youngAfter('status')).toBeGreaterThan(8);
});
