/**
 * The page itself: an HTML shell made here (it carries the token for the
 * POST header) and the bundle esbuild wrote at build time (scripts/
 * bundle-web.mjs → dist/web/page/). Nothing is fetched from elsewhere: the
 * Content-Security-Policy allows this origin only, which also means a task
 * subject that smuggles a <script> could not run even if it were ever put
 * into the DOM as markup (the page only ever sets text).
 */
import { packageRoot } from '../config/package-root.js';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export const SECURITY_HEADERS = {
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'same-origin',
  'cache-control': 'no-store',
} as const;

export { packageRoot };

export const pageDir = (): string => join(packageRoot(), 'dist', 'web', 'page');

export interface PageAssets {
  js: Buffer;
  css: Buffer;
}

/** The bundle, or why it is missing (a source checkout not built yet). */
export function loadAssets(dir = pageDir()): { ok: true; value: PageAssets } | { ok: false; error: string } {
  const js = join(dir, 'app.js');
  const css = join(dir, 'app.css');
  if (!existsSync(js) || !existsSync(css)) return { ok: false, error: `the page is not built (${js}): run npm run build` };
  return { ok: true, value: { js: readFileSync(js), css: readFileSync(css) } };
}

const escapeAttr = (s: string): string => s.replace(/[&"<>]/g, (c) => `&#${c.charCodeAt(0)};`);

export function pageHtml(token: string, repoName: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="dark light">
<meta name="teamd-token" content="${escapeAttr(token)}">
<title>teamd · ${escapeAttr(repoName)}</title>
<link rel="stylesheet" href="/app.css">
</head>
<body>
<div id="app"><p class="loading">loading the team…</p></div>
<script type="module" src="/app.js"></script>
</body>
</html>
`;
}
