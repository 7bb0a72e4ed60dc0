// Bundles the web page (web/main.tsx and web/style.css) into dist/web/page/
// for `teamd web`: preact and the page's code in one minified ES module, the
// stylesheet beside it. No CDN, nothing fetched at run time.
import { build } from 'esbuild';

const shared = { bundle: true, minify: true, legalComments: 'none', logLevel: 'warning', outdir: 'dist/web/page' };
await build({
  ...shared,
  entryPoints: { app: 'web/main.tsx' },
  format: 'esm',
  platform: 'browser',
  target: ['chrome110', 'firefox110', 'safari16'],
  jsx: 'automatic',
  jsxImportSource: 'preact',
});
await build({ ...shared, entryPoints: { app: 'web/style.css' } });
