// Bundles the CLI (after tsc): dist/cli/main.js and the teammate worker
// (dist/teammate/worker.js, started by path) become ES modules with the code
// of teamd, the SDK, zod and commander in them, sharing chunks, and each
// command group a chunk loaded on demand. Loading ~1,300 files through the
// ESM loader was half of `teamd agent -p`'s start (docs/DECISIONS.md). The
// rest of dist/ stays as tsc wrote it: the library entry (dist/index.js, its
// types) and the demo assets. Chunks sit in dist/cli/, next to main.js, so
// `new URL('../…', import.meta.url)` paths hold.
import { createHash } from 'node:crypto';
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

/** The command groups with a CommonJS bundle of their own, run with a V8 code cache (src/cli/launch.ts, code-cache.ts). */
const CACHED_GROUPS = ['agent', 'status'];
/** The modules src/cli/main.ts imports per command group (its COMMAND_GROUPS) and the file commands. */
const GROUP_MODULES = ['agent', 'team', 'status', 'logs', 'approvals', 'worktrees', 'top', 'cost', 'doctor', 'resume', 'review', 'gc', 'teammate-stdio', 'web', 'mcp', 'files-program'];
const MAIN = join(process.cwd(), 'dist/cli/main.js');

/**
 * A cached bundle holds one command group: the other groups main.ts can
 * import become a module that throws (the launcher sends help and every other
 * command to the ES module bundle), and so does ink, which has a top-level
 * await that `require` cannot load (no dashboard runs in these commands).
 */
const onlyGroup = (group) => ({
  name: 'only-group',
  setup(b) {
    const other = new RegExp(`^\\./(${GROUP_MODULES.filter((g) => g !== group).join('|')})\\.js$`);
    b.onResolve({ filter: /^\.\/[a-z-]+\.js$/ }, (args) => (args.importer === MAIN && other.test(args.path) ? { path: args.path, namespace: 'not-here' } : undefined));
    b.onResolve({ filter: /^ink(\/|$)/ }, (args) => ({ path: args.path, namespace: 'not-here' }));
    b.onLoad({ filter: /.*/, namespace: 'not-here' }, (args) => ({
      contents: `throw new Error(${JSON.stringify(`teamd: ${args.path} is not in the ${group} bundle (scripts/bundle-cli.mjs)`)});`,
    }));
  },
});

const common = { bundle: true, platform: 'node', target: 'node20', external, minifySyntax: true, legalComments: 'none', logLevel: 'warning' };
for (const f of readdirSync('dist/cli')) if (f.startsWith('bundle-') || f.startsWith('cached-')) rmSync(`dist/cli/${f}`);
rmSync('dist/cli/.code-cache', { recursive: true, force: true });

// One CommonJS file per cached group, `import.meta` given by the launcher (the bundle's folder is dist/cli/, as for the chunks).
const hashes = {};
for (const group of CACHED_GROUPS) {
  const outfile = `dist/cli/cached-${group}.cjs`;
  await build({ ...common, entryPoints: [MAIN], outfile, format: 'cjs', plugins: [zodEnglishOnly, onlyGroup(group)], define: { 'import.meta': '__teamdImportMeta' } });
  hashes[group] = createHash('sha256').update(readFileSync(outfile)).digest('hex').slice(0, 16);
}

await build({
  ...common,
  entryPoints: { 'cli/main-esm': MAIN, 'teammate/worker': 'dist/teammate/worker.js' },
  outdir: 'dist',
  allowOverwrite: true,
  splitting: true,
  format: 'esm',
  plugins: [zodEnglishOnly],
  chunkNames: 'cli/bundle-[name]-[hash]',
  // Bundled CommonJS (inside the SDK's dependencies) may call require().
  banner: { js: "import { createRequire as __teamdRequire } from 'node:module'; const require = __teamdRequire(import.meta.url);" },
});

// The entry: the launcher, which picks the cached bundle or the ES module one (src/cli/launch.ts).
await build({
  ...common,
  entryPoints: ['dist/cli/launch.js'],
  outfile: 'dist/cli/main.js',
  allowOverwrite: true,
  format: 'esm',
  external: ['./main-esm.js'],
  define: { __TEAMD_CACHED_BUNDLES__: JSON.stringify(hashes) },
  banner: { js: '#!/usr/bin/env node' },
});
