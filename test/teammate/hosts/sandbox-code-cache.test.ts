/**
 * teamd's V8 code caches are code the next `teamd agent` / `status` on the
 * host runs (src/cli/code-cache.ts): under real bubblewrap a teammate can
 * write none of them, not even with its whole home granted writable
 * (`writable: ["~"]`), while the rest of that home stays writable.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { cacheDirs } from '../../../src/cli/code-cache.js';
import { packageRoot } from '../../../src/config/package-root.js';
import { findBwrap, sandboxArgs } from '../../../src/teammate/hosts/sandbox.js';

const bwrap = findBwrap();
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

it.skipIf(!bwrap)('a sandboxed teammate cannot plant a code cache, even with its home writable', () => {
  const repo = mkdtempSync(join(tmpdir(), 'teamd-sbx-cache-'));
  const home = mkdtempSync(join(tmpdir(), 'teamd-sbx-home-'));
  dirs.push(repo, home);
  mkdirSync(join(repo, '.team', 'state'), { recursive: true });
  const caches = cacheDirs(join(packageRoot(), 'dist', 'cli'), { ...process.env, HOME: home });
  const before = caches.map((d) => (existsSync(d) ? readdirSync(d).sort() : []));
  const lines = ['for d in "$@"; do', '  if (mkdir -p "$d" && echo planted > "$d/x.bin") 2>/dev/null; then echo "LEAKED $d"; fi', 'done'];
  lines.push(`echo ok > '${join(home, 'note.txt')}' || echo "HOME NOT WRITABLE"`);
  const inner = { file: '/usr/bin/bash', args: ['-c', lines.join('\n'), 'probe', ...caches] };
  const args = sandboxArgs({ readOnly: [], writable: ['~'], network: false, repoRoot: repo, name: 'ann', home, inner });
  const run = spawnSync(bwrap!, args, { encoding: 'utf8', timeout: 20_000 });
  expect(run.status, run.stderr).toBe(0);
  expect(run.stdout).toBe('');
  expect(caches.map((d) => readdirSync(d).sort())).toEqual(before); // nothing planted, nothing removed
  expect(existsSync(join(home, 'note.txt'))).toBe(true); // the grant itself still works
});
