/**
 * The sandbox's layout under real bubblewrap, without a team: with one
 * worktree granted, generated writes under `.worktrees/` (another worktree,
 * `.merge`, a new entry, `..` and symlink routes) fail, and the same names
 * inside the granted worktree land. One bwrap per run of many attempts.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, expect, it } from 'vitest';
import { findBwrap, sandboxArgs } from '../../../src/teammate/hosts/sandbox.js';

const bwrap = findBwrap();
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

// not the names the layout itself uses: `../a/x` with n = "a" is a write inside the granted worktree
const LAYOUT = new Set(['.', '..', 'a', 'b', '.merge', 'link-b', 'link-wt']);
const name = fc.stringMatching(/^[A-Za-z0-9_-][A-Za-z0-9._-]{0,11}$/).filter((n) => !LAYOUT.has(n));

/** Routes out of the granted worktree `a` to somewhere else under `.worktrees/` (relative to `a`). */
const routes = (n: string) => [`../b/${n}`, `../.merge/${n}`, `../${n}`, `../${n}/x`, `../a/../b/${n}`, `link-b/${n}`, `link-wt/${n}`];

it.skipIf(!bwrap)('with one worktree granted, every generated write elsewhere under .worktrees/ fails and the same name in it lands', () => {
  fc.assert(
    fc.property(fc.uniqueArray(name, { minLength: 1, maxLength: 8 }), (names) => {
      const repo = mkdtempSync(join(tmpdir(), 'teamd-sbx-'));
      dirs.push(repo);
      const wt = join(repo, '.worktrees');
      for (const d of ['a', 'b', '.merge']) mkdirSync(join(wt, d), { recursive: true });
      mkdirSync(join(repo, '.team', 'state'), { recursive: true });
      const lines = ['cd "$1"', 'ln -s ../b link-b; ln -s .. link-wt'];
      for (const n of names) {
        for (const r of routes(n)) lines.push(`if (mkdir -p "$(dirname '${r}')" && echo x > '${r}') 2>/dev/null; then echo "LEAKED ${r}"; fi`);
        lines.push(`echo x > '${n}' || echo "MISSING ${n}"`);
      }
      const inner = { file: '/usr/bin/bash', args: ['-c', lines.join('\n'), 'probe', join(wt, 'a')] };
      const args = sandboxArgs({ readOnly: [], writable: [], network: false, repoRoot: repo, name: 'ann', home: join(repo, 'home'), inner, worktree: join(wt, 'a') });
      const run = spawnSync(bwrap!, args, { encoding: 'utf8', timeout: 20_000 });
      expect(run.status, run.stderr).toBe(0);
      expect(run.stdout).toBe('');
      for (const n of names) expect(existsSync(join(wt, 'a', n))).toBe(true);
      expect(readdirSync(join(wt, 'b'))).toEqual([]);
      expect(readdirSync(join(wt, '.merge'))).toEqual([]);
      expect(readdirSync(wt).sort()).toEqual(['.merge', 'a', 'b']);
    }),
    { numRuns: 15 },
  );
});
