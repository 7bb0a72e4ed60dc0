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
import { cacheDirs, cacheName, cachedBundleOf, depthAndData, pruneOld, writeCache } from '../../src/cli/code-cache.js';

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

/** loadCachedBundle in a child process (its cache is made at exit): prints the outcome and the bundle's answer. */
function runBundle(body: string, o: { stamp?: number; depth?: number; file?: string } = {}): string {
  const file = o.file ?? join(dir, 'b.cjs');
  const stamp = o.stamp ?? 1_000_000;
  const script = `
    const { loadCachedBundle } = await import(${JSON.stringify(new URL('../../src/cli/code-cache.ts', import.meta.url).href)});
    const { createRequire: requireFrom } = await import('node:module');
    const file = ${JSON.stringify(file)};
    require('node:fs').writeFileSync(file, ${JSON.stringify(body)});
    require('node:fs').utimesSync(file, ${stamp}, ${stamp});
    const r = loadCachedBundle({ file, hash: 'same', depth: () => ${o.depth ?? 0}, importMeta: { url: '', resolve: (s) => s }, require: requireFrom(file), env: { TEAMD_CODE_CACHE_DIR: ${JSON.stringify(join(dir, 'cc'))} } });
    console.log(r.outcome, r.exports.answer());`;
  return execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', `import { createRequire } from 'node:module'; const require = createRequire(import.meta.url); ${script}`], { encoding: 'utf8' }).trim();
}

it('an edited bundle of the same length gets a cache of its own (V8 would run the old code: it checks the length only)', () => {
  const a = 'module.exports.answer = () => 1 + 1; function pad() { return "aaaa"; }';
  const b = 'module.exports.answer = () => 2 + 2; function pad() { return "bbbb"; }';
  expect(runBundle(a)).toBe('miss 2');
  expect(runBundle(a)).toBe('hit 2');
  expect(runBundle(b)).toBe('hit 2'); // what V8 alone does: the old code runs
  expect(runBundle(b, { stamp: 2_000_000 })).toBe('miss 4'); // the name holds the modification time
});

it('a run that gets further than the run that made the cache writes it again, once; a shallower one leaves it', () => {
  const file = join(dir, 'deep.cjs');
  const body = 'module.exports.answer = () => 3; function tool() { return [1, 2, 3].map((x) => x * 2); }';
  const cacheFile = (): string => join(dir, 'cc', readdirSync(join(dir, 'cc')).find((n) => n.startsWith('same-') && n.includes(Math.trunc(3_000_000_000).toString(36)))!);
  const depthOf = (): number | undefined => depthAndData(readFileSync(cacheFile()))?.depth;
  expect(runBundle(body, { file, stamp: 3_000_000, depth: 1 })).toBe('miss 3');
  expect(depthOf()).toBe(1);
  const first = readFileSync(cacheFile());
  expect(runBundle(body, { file, stamp: 3_000_000, depth: 1 })).toBe('hit 3');
  expect(readFileSync(cacheFile()).equals(first)).toBe(true); // not written again
  expect(runBundle(body, { file, stamp: 3_000_000, depth: 2 })).toBe('hit 3');
  expect(depthOf()).toBe(2);
  const deeper = readFileSync(cacheFile());
  expect(runBundle(body, { file, stamp: 3_000_000, depth: 1 })).toBe('hit 3');
  expect(readFileSync(cacheFile()).equals(deeper)).toBe(true);
  // a file of another format (no header: an older teamd's, or garbage) is not given to V8, and is replaced
  writeFileSync(cacheFile(), deeper.subarray(5));
  expect(runBundle(body, { file, stamp: 3_000_000, depth: 1 })).toBe('rejected 3');
  expect(depthOf()).toBe(1);
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
