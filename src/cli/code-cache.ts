/**
 * A V8 code cache for a CommonJS bundle of the CLI (Node 20 has no
 * `module.enableCompileCache()`; an ES module cannot be given cached data
 * without `--experimental-vm-modules`). The bundle is compiled with
 * `vm.Script` and `cachedData`; the cache is written when the process exits,
 * so it holds the functions the run compiled lazily as well, which is most
 * of what a start compiles — and written again by a later run that got
 * further (a tool turn after a cache made by a run without one; see
 * cache-depth.ts). V8 checks the data against the source, its
 * version and its flags and rejects what does not fit: then the bundle is
 * compiled from source and the cache written again. A cache that cannot be
 * read or written is no error; it is only slower. Only the user's own files
 * in the user's own folders are read and written (cache-trust.ts,
 * cache-write.ts), and a file's digest must match (cache-format.ts).
 *
 * Imports Node's built-in modules only: this runs before the bundle.
 */
import { readFileSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import vm from 'node:vm';
import { decodeCacheFile, encodeCacheFile } from './cache-format.js';
import { readCacheFile, type CacheRead } from './cache-trust.js';
import { writeCache } from './cache-write.js';

/**
 * What the run found: `hit` (used), `miss` (none yet), `refused` (a file not to be trusted: another user's, a
 * link, writable by others; cache-trust.ts), `rejected` (damaged, of another format, or refused by V8), `off`
 * (TEAMD_NO_CODE_CACHE=1).
 */
export type CacheOutcome = 'hit' | 'miss' | 'refused' | 'rejected' | 'off';

export interface CachedBundle {
  /** The bundle's `module.exports`. */
  exports: Record<string, unknown>;
  outcome: CacheOutcome;
}

/**
 * The folders a cache may live in, first choice first: `TEAMD_CODE_CACHE_DIR`
 * alone when set; else next to the bundle, then the user's cache folder
 * (when the install is not writable, or not the user's: each user reads
 * only caches of their own, cache-trust.ts).
 */
export function cacheDirs(bundleDir: string, env: NodeJS.ProcessEnv = process.env): string[] {
  if (env.TEAMD_CODE_CACHE_DIR) return [env.TEAMD_CODE_CACHE_DIR];
  const userCache = env.XDG_CACHE_HOME || join(env.HOME || homedir(), '.cache');
  return [join(bundleDir, '.code-cache'), join(userCache, 'teamd', 'code-cache')];
}

/**
 * The cache's file name: the bundle's build hash and its file's modification
 * time, Node's version and the CPU (V8's data is for one of each). V8 itself
 * checks only the source's length: it runs the cached code of another source
 * of the same length (test/cli/code-cache.test.ts), so the name must tell
 * bundles apart — the hash a rebuild, the time an edit in place.
 */
export const cacheName = (bundleHash: string, mtimeMs: number): string =>
  `${bundleHash}-${Math.trunc(mtimeMs).toString(36)}-${process.version}-${process.arch}.bin`;

/** The first cache file that is there and trusted; else whether one was refused. */
function readFirst(files: string[]): CacheRead {
  let found: CacheRead = { kind: 'absent' };
  for (const file of files) {
    const read = readCacheFile(file);
    if (read.kind === 'read') return read;
    if (read.kind === 'refused') found = read;
  }
  return found;
}

/** The first word that is not an option, as src/cli/main.ts finds it. */
const commandOf = (argv: readonly string[]): string | undefined => argv.slice(2).find((a) => !a.startsWith('-'));

/** The CommonJS bundle (in `dir`) and hash of the command `argv` runs, or undefined when it has none. */
export function cachedBundleOf(argv: readonly string[], bundles: Record<string, string>, dir: string): { file: string; hash: string } | undefined {
  const command = commandOf(argv);
  if (command === undefined || !Object.hasOwn(bundles, command)) return undefined;
  return { file: join(dir, `cached-${command}.cjs`), hash: bundles[command]! };
}

export interface LoadOptions {
  /** The CommonJS bundle. */
  file: string;
  /** A hash of the bundle's text, written by the build (the cache's key). */
  hash: string;
  /** `import.meta` as the bundle's ES modules would see it from the bundle's folder. */
  importMeta: { url: string; resolve: (specifier: string) => string };
  require: NodeJS.Require;
  /** False to make no cache in this run (help: it compiles little of what a real run needs). */
  write?: boolean;
  /** Called just before the cache is made at exit (to put back V8 flags the run changed: they are part of V8's check). */
  beforeWrite?: () => void;
  /** How far the run got, asked at exit (cache-depth.ts): a run deeper than the cache's writes it again. */
  depth?: () => number;
  env?: NodeJS.ProcessEnv;
}

const outcomeOf = (read: CacheRead, used: boolean): CacheOutcome =>
  read.kind === 'absent' ? 'miss' : read.kind === 'refused' ? 'refused' : used ? 'hit' : 'rejected';

const WRAPPER = '(function (exports, require, module, __filename, __dirname, __teamdImportMeta) {';

/**
 * Compiles and runs the bundle with the cache when there is one; makes the cache at exit when there was none,
 * or when this run got further than the run that made it (`depth`).
 */
export function loadCachedBundle(o: LoadOptions): CachedBundle {
  const env = o.env ?? process.env;
  const off = env.TEAMD_NO_CODE_CACHE === '1';
  const name = cacheName(o.hash, statSync(o.file).mtimeMs);
  const files = cacheDirs(dirname(o.file), env).map((d) => join(d, name));
  const read: CacheRead = off ? { kind: 'absent' } : readFirst(files);
  const cached = read.kind === 'read' ? decodeCacheFile(read.bytes) : undefined;
  // esbuild keeps the entry's `#!` line, which is no JavaScript inside the wrapper
  const source = readFileSync(o.file, 'utf8').replace(/^#!.*/, '');
  const script = new vm.Script(`${WRAPPER}${source}\n})`, {
    filename: o.file,
    cachedData: cached?.data,
    importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
  });
  const outcome: CacheOutcome = off ? 'off' : outcomeOf(read, cached !== undefined && !script.cachedDataRejected);
  const cachedDepth = outcome === 'hit' ? cached!.depth : -1;
  if (!off && o.write !== false)
    process.once('exit', (code) => {
      if (code !== 0) return; // a failed run compiled only part of a run's code: the next one makes the cache
      const depth = o.depth?.() ?? 0;
      if (depth <= cachedDepth) return; // the cache holds at least what this run compiled
      o.beforeWrite?.();
      writeCache(files, encodeCacheFile(script.createCachedData(), depth), { tighten: !env.TEAMD_CODE_CACHE_DIR });
    });
  const module = { exports: {} as Record<string, unknown> };
  const run = script.runInThisContext() as (...args: unknown[]) => void;
  run(module.exports, o.require, module, o.file, dirname(o.file), o.importMeta);
  return { exports: module.exports, outcome };
}
