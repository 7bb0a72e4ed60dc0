/**
 * The code cache's pieces in one process (src/cli/code-cache.ts): where a
 * cache may live, which commands have a cached bundle, and the atomic write
 * that falls back to the next folder. The whole round trip through the built
 * CLI is test/package/code-cache.test.ts.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, expect, it } from 'vitest';
import { cacheDirs, cacheName, cachedBundleOf, pruneOld, writeCache } from '../../src/cli/code-cache.js';

const dir = mkdtempSync(join(tmpdir(), 'teamd-cc-unit-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('a cache lives next to the bundle, else in the user cache folder; TEAMD_CODE_CACHE_DIR alone when set', () => {
  expect(cacheDirs('/opt/teamd/dist/cli', { HOME: '/home/u' })).toEqual(['/opt/teamd/dist/cli/.code-cache', '/home/u/.cache/teamd/code-cache']);
  expect(cacheDirs('/d', { HOME: '/home/u', XDG_CACHE_HOME: '/xdg' })[1]).toBe('/xdg/teamd/code-cache');
  expect(cacheDirs('/d', { TEAMD_CODE_CACHE_DIR: '/c', HOME: '/h' })).toEqual(['/c']);
  expect(cacheName('abc', 36_000.5)).toBe(`abc-rs0-${process.version}-${process.arch}.bin`);
});

it('only a command with a bundle of its own is run from one; options before it are skipped', () => {
  const bundles = { agent: 'h1', status: 'h2' };
  expect(cachedBundleOf(['node', 'main.js', '--verbose', 'agent', '-p', 'x'], bundles, '/d')).toEqual({ file: '/d/cached-agent.cjs', hash: 'h1' });
  expect(cachedBundleOf(['node', 'main.js', 'status'], bundles, '/d')?.hash).toBe('h2');
  for (const argv of [['node', 'main.js'], ['node', 'main.js', '--help'], ['node', 'main.js', 'start'], ['node', 'main.js', 'toString'], ['node', 'main.js', '__proto__']])
    expect(cachedBundleOf(argv, bundles, '/d'), argv.join(' ')).toBeUndefined();
  fc.assert(
    fc.property(fc.array(fc.string()), (words) => {
      const found = cachedBundleOf(['node', 'main.js', ...words], bundles, '/d');
      const command = words.find((w) => !w.startsWith('-'));
      expect(found === undefined).toBe(command !== 'agent' && command !== 'status');
    }),
  );
});

it('writes atomically to the first folder that takes it, and reports none when no folder does', () => {
  const blocked = join(dir, 'a-file');
  writeFileSync(blocked, '');
  const good = join(dir, 'ok', 'deep', 'x.bin');
  expect(writeCache([join(blocked, 'x.bin'), good], Buffer.from('data'))).toBe(good);
  expect(readFileSync(good, 'utf8')).toBe('data');
  expect(writeCache([join(blocked, 'y.bin')], Buffer.from('data'))).toBeUndefined();
  expect(readdirSync(join(dir, 'ok', 'deep'))).toEqual(['x.bin']); // no temporary file left
});

it('an edited bundle of the same length gets a cache of its own (V8 would run the old code: it checks the length only)', () => {
  // loadCachedBundle in a child process: its cache is made at exit
  const script = (body: string, stamp: number) => `
    const { loadCachedBundle } = await import(${JSON.stringify(new URL('../../src/cli/code-cache.ts', import.meta.url).href)});
    const { createRequire: requireFrom } = await import('node:module');
    const file = ${JSON.stringify(join(dir, 'b.cjs'))};
    require('node:fs').writeFileSync(file, ${JSON.stringify(body)});
    require('node:fs').utimesSync(file, ${stamp}, ${stamp});
    const r = loadCachedBundle({ file, hash: 'same', importMeta: { url: '', resolve: (s) => s }, require: requireFrom(file), env: { TEAMD_CODE_CACHE_DIR: ${JSON.stringify(join(dir, 'cc'))} } });
    console.log(r.outcome, r.exports.answer());`;
  const run = (body: string, stamp = 1_000_000) =>
    execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', `import { createRequire } from 'node:module'; const require = createRequire(import.meta.url); ${script(body, stamp)}`], { encoding: 'utf8' }).trim();
  const a = 'module.exports.answer = () => 1 + 1; function pad() { return "aaaa"; }';
  const b = 'module.exports.answer = () => 2 + 2; function pad() { return "bbbb"; }';
  expect(run(a)).toBe('miss 2');
  expect(run(a)).toBe('hit 2');
  expect(run(b)).toBe('hit 2'); // what V8 alone does: the old code runs
  expect(run(b, 2_000_000)).toBe('miss 4'); // the name holds the modification time
});

it('a write removes caches not written for 30 days, and nothing else', () => {
  const folder = join(dir, 'prune');
  mkdirSync(folder);
  for (const n of ['old.bin', 'new.bin', 'old.txt']) writeFileSync(join(folder, n), '');
  const longAgo = (Date.now() - 31 * 24 * 3600_000) / 1000;
  utimesSync(join(folder, 'old.bin'), longAgo, longAgo);
  utimesSync(join(folder, 'old.txt'), longAgo, longAgo);
  pruneOld(folder);
  expect(readdirSync(folder).sort()).toEqual(['new.bin', 'old.txt']);
  pruneOld(join(dir, 'no-such-folder')); // no error
});
