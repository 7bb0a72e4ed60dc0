// Bundles the CLI (after tsc): dist/cli/main.js and the teammate worker
// (dist/teammate/worker.js, started by path) become ES modules with the code
// of teamd, the SDK, zod and commander in them, sharing chunks, and each
// command group a chunk loaded on demand. Loading ~1,300 files through the
// ESM loader was half of `teamd agent -p`'s start (docs/DECISIONS.md). The
// rest of dist/ stays as tsc wrote it: the library entry (dist/index.js, its
// types) and the demo assets. Chunks sit in dist/cli/, next to main.js, so
// `new URL('../…', import.meta.url)` paths hold.
import { readFileSync, readdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { build } from 'esbuild';

/** Bundled: small, pure JavaScript, on every command's path. */
const BUNDLED = new Set(['@anthropic-ai/sdk', 'zod', 'commander', 'diff', 'tinyglobby', 'yaml']);

const { dependencies } = JSON.parse(readFileSync('package.json', 'utf8'));
// Kept external: worker or wasm files found by path (pino, ink), lazy and large (MCP), tsx, createRequire users.
const external = Object.keys(dependencies).filter((d) => !BUNDLED.has(d));

/**
 * zod's `z.locales` namespace holds its error messages in ~50 languages
 * (348 kB of the 708 kB zod chunk, parsed on every start). teamd never calls
 * `z.config(z.locales.xx())`; zod's default, English, is imported by its
 * schemas directly. So the namespace is bundled with `en` only.
 */
const zodEnglishOnly = {
  name: 'zod-english-only',
  setup(b) {
    b.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      /[\\/]node_modules[\\/]zod[\\/]/.test(args.importer) ? { path: join(dirname(args.importer), '../locales/index.js'), namespace: 'zod-en' } : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'zod-en' }, (args) => ({
      contents: `export { default as en } from ${JSON.stringify(join(dirname(args.path), 'en.js'))};`,
      resolveDir: dirname(args.path),
    }));
  },
};

for (const f of readdirSync('dist/cli')) if (f.startsWith('bundle-')) rmSync(`dist/cli/${f}`);
await build({
  entryPoints: { 'cli/main': 'dist/cli/main.js', 'teammate/worker': 'dist/teammate/worker.js' },
  outdir: 'dist',
  allowOverwrite: true,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  external,
  plugins: [zodEnglishOnly],
  chunkNames: 'cli/bundle-[name]-[hash]',
  minifySyntax: true,
  legalComments: 'none',
  logLevel: 'warning',
  // Bundled CommonJS (inside the SDK's dependencies) may call require().
  banner: { js: "import { createRequire as __teamdRequire } from 'node:module'; const require = __teamdRequire(import.meta.url);" },
});
