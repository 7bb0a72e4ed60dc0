/**
 * The code cache (src/cli/code-cache.ts): where a cache may live, which
 * commands have a cached bundle, and loadCachedBundle in real processes —
 * the cache of an edited bundle, the depth of the run that made it, and a
 * cache planted by someone else (another bundle's code, which V8 would run)
 * refused whatever was planted, the run going on without it. The file checks
 * and the write alone are cache-trust.test.ts and cache-write.test.ts; the
 * whole round trip through the built CLI is test/package/code-cache.test.ts.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, expect, it } from 'vitest';
import { decodeCacheFile } from '../../src/cli/cache-format.js';
import { cacheDirs, cacheName, cachedBundleOf } from '../../src/cli/code-cache.js';

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

/** loadCachedBundle in a child process (its cache is made at exit): prints the outcome and the bundle's answer. */
function runBundle(body: string, o: { stamp?: number; depth?: number; file?: string; cacheDir?: string } = {}): string {
  const file = o.file ?? join(dir, 'b.cjs');
  const stamp = o.stamp ?? 1_000_000;
  const script = `
    const { loadCachedBundle } = await import(${JSON.stringify(new URL('../../src/cli/code-cache.ts', import.meta.url).href)});
    const { createRequire: requireFrom } = await import('node:module');
    const file = ${JSON.stringify(file)};
    require('node:fs').writeFileSync(file, ${JSON.stringify(body)});
    require('node:fs').utimesSync(file, ${stamp}, ${stamp});
    const r = loadCachedBundle({ file, hash: 'same', depth: () => ${o.depth ?? 0}, importMeta: { url: '', resolve: (s) => s }, require: requireFrom(file), env: { TEAMD_CODE_CACHE_DIR: ${JSON.stringify(o.cacheDir ?? join(dir, 'cc'))} } });
    console.log(r.outcome, r.exports.answer());`;
  const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', `import { createRequire } from 'node:module'; const require = createRequire(import.meta.url); ${script}`], {
    encoding: 'utf8',
    timeout: 30_000, // a read that blocked (a FIFO) is killed, and fails below
  });
  if (run.status !== 0) throw new Error(`the bundle's run failed (${run.signal ?? run.status}): ${run.stderr}`);
  expect(run.stderr).toBe(''); // a refused or rejected cache is no message either
  return run.stdout.trim();
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
  const depthOf = (): number | undefined => decodeCacheFile(readFileSync(cacheFile()))?.depth;
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

/*
 * A cache planted by someone else: V8 checks only the source's length, so the cache a run of EVIL made,
 * put under the name A's cache has, runs EVIL's code in place of A's (the first test below). Whatever
 * else of it is planted — writable by others, another uid's, behind a link, a FIFO, in a folder others may
 * write — the run refuses it, answers as A, and replaces it when the folder is the user's.
 */
const A = 'module.exports.answer = () => 1 + 1; function pad() { return "aaaa"; }';
const EVIL = 'module.exports.answer = () => 6 * 7; function pad() { return "evil"; }';
const STAMP = 5_000_000;
const NAME = cacheName('same', STAMP * 1000);
const isRoot = process.getuid?.() === 0;

let evilCache: Buffer | undefined;
/** The cache file a run of EVIL made in a folder of its own (made once). */
function planted(): Buffer {
  if (evilCache) return evilCache;
  const folder = join(dir, 'attacker');
  expect(runBundle(EVIL, { file: join(dir, 'evil.cjs'), stamp: STAMP, cacheDir: folder })).toBe('miss 42');
  return (evilCache = readFileSync(join(folder, NAME)));
}

let victims = 0;
/** A fresh cache folder of the user's (0700), the name A's cache has there, and A run with it. */
function victim(): { folder: string; file: string; run: () => string } {
  const folder = join(dir, `victim-${victims++}`);
  mkdirSync(folder, { mode: 0o700 });
  return { folder, file: join(folder, NAME), run: () => runBundle(A, { file: join(dir, 'a.cjs'), stamp: STAMP, cacheDir: folder }) };
}

it("a planted cache of the user's own is run (V8 alone would run another user's too): what the checks below stop", () => {
  const v = victim();
  writeFileSync(v.file, planted(), { mode: 0o600 });
  expect(v.run()).toBe('hit 42');
});

/** EVIL's cache at `file` with `mode` (set after the write: the umask would take the group's and others' bits off). */
function plantWithMode(file: string, mode: number): void {
  writeFileSync(file, planted());
  chmodSync(file, mode);
}

/** What can be planted at A's cache name; each also says what must be true of it after the run. */
const PLANTS: Record<string, { skip?: boolean; plant: (file: string, folder: string) => void; after?: (file: string) => void }> = {
  'writable by others (0666)': { plant: (f) => plantWithMode(f, 0o666) },
  'writable by its group (0620)': { plant: (f) => plantWithMode(f, 0o620) },
  'writable by others only (0602)': { plant: (f) => plantWithMode(f, 0o602) },
  'a link to a file of the user outside the folder': {
    plant: (f) => {
      writeFileSync(`${f}.outside`, planted(), { mode: 0o600 });
      symlinkSync(`${f}.outside`, f);
    },
    after: (f) => expect(readFileSync(`${f}.outside`).equals(planted())).toBe(true), // not written through
  },
  'a FIFO (no writer: a plain open would block the run)': { plant: (f) => execFileSync('mkfifo', [f]) },
  "another uid's (as root: chowned to nobody)": {
    skip: !isRoot,
    plant: (f) => {
      writeFileSync(f, planted(), { mode: 0o644 });
      chownSync(f, 65534, 65534);
    },
  },
};

for (const [what, p] of Object.entries(PLANTS))
  it.skipIf(p.skip)(`a planted cache ${what} is refused, the run answers from source, and the cache is replaced by its own`, () => {
    const v = victim();
    p.plant(v.file, v.folder);
    expect(v.run()).toBe('refused 2');
    p.after?.(v.file);
    expect(lstatSync(v.file).isFile()).toBe(true);
    expect(lstatSync(v.file).mode & 0o777).toBe(0o600);
    expect(lstatSync(v.file).uid).toBe(process.getuid?.());
    expect(v.run()).toBe('hit 2');
  });

/** Folders another user may change: a named folder (TEAMD_CODE_CACHE_DIR) is refused and left as it is, so a plant stays refused. */
const FOLDERS: Record<string, { skip?: boolean; spoil: (folder: string) => void }> = {
  'writable by all (0777)': { spoil: (d) => chmodSync(d, 0o777) },
  'writable by its group (0775)': { spoil: (d) => chmodSync(d, 0o775) },
  'sticky, writable by all (1777, as /tmp)': { spoil: (d) => chmodSync(d, 0o1777) },
  "another uid's (as root: chowned to nobody)": { skip: !isRoot, spoil: (d) => chownSync(d, 65534, 65534) },
};

for (const [what, f] of Object.entries(FOLDERS))
  it.skipIf(f.skip)(`a cache in a folder ${what} is refused, and nothing is written there`, () => {
    const v = victim();
    writeFileSync(v.file, planted(), { mode: 0o644 });
    f.spoil(v.folder);
    expect(v.run()).toBe('refused 2');
    expect(readFileSync(v.file).equals(planted())).toBe(true);
    expect(readdirSync(v.folder)).toEqual([NAME]); // no temp file, no new cache
    expect(v.run()).toBe('refused 2');
  });

it('a damaged cache (cut short, bytes flipped, garbage with the header) is rejected and replaced, never crashes the run', () => {
  const v = victim();
  expect(v.run()).toBe('miss 2');
  const good = readFileSync(v.file);
  const flipped = Buffer.from(good);
  for (let i = 0; i < 64; i++) flipped[(flipped.length >> 1) + i]! ^= 0xff; // what crashed V8's deserialiser (SIGSEGV) before the digest
  const damages = [good.subarray(0, good.length >> 1), flipped, Buffer.concat([good.subarray(0, 37), Buffer.alloc(good.length - 37, 7)])];
  for (const damaged of damages) {
    writeFileSync(v.file, damaged);
    expect(v.run()).toBe('rejected 2');
    expect(v.run()).toBe('hit 2');
  }
});
