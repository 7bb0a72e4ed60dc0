/**
 * The built CLI's entry (`dist/cli/main.js`, bundled from this file by
 * scripts/bundle-cli.mjs). A command with a CommonJS bundle of its own
 * (`agent`: the build names them in `__TEAMD_CACHED_BUNDLES__`, each with a
 * hash of its text) runs from that bundle with a V8 code cache
 * (code-cache.ts), so its start skips most of the parse and compile of its
 * JavaScript. Every other command, help, and a word that is no command run
 * the ES module bundle (`main-esm.js`, a chunk per command group) as before.
 */
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { cachedBundleOf, loadCachedBundle } from './code-cache.js';

declare const __TEAMD_CACHED_BUNDLES__: Record<string, string>;

interface CliBundle {
  main: () => Promise<void>;
  restoreParserFlags?: () => void;
  runDepth?: () => number;
}

function runCached(file: string, hash: string): Promise<void> {
  const importMeta = { url: pathToFileURL(file).href, resolve: (s: string) => import.meta.resolve(s) };
  const bundle: CliBundle = loadCachedBundle({
    file,
    hash,
    importMeta,
    require: createRequire(file),
    write: !process.argv.includes('--help') && !process.argv.includes('-h'),
    beforeWrite: () => bundle.restoreParserFlags?.(),
    depth: () => bundle.runDepth?.() ?? 0,
  }).exports as unknown as CliBundle;
  return bundle.main();
}

/** The ES module bundle, next to this file (a variable: the launcher's build leaves it out). */
const MAIN_ESM = './main-esm.js';
const here = dirname(fileURLToPath(import.meta.url));
const cached = cachedBundleOf(process.argv, __TEAMD_CACHED_BUNDLES__, here);
if (cached) void runCached(cached.file, cached.hash);
else void import(MAIN_ESM).then((m: CliBundle) => m.main());
