// Bundles the CLI (scripts/bundle-cli.mjs) and the web page (scripts/bundle-web.mjs), marks the CLI executable and copies
// non-TS assets (role prompts, demo fixtures) next to the compiled code.
import { chmodSync, cpSync, existsSync } from 'node:fs';

if (existsSync('dist/cli/main.js') && process.env.TEAMD_NO_BUNDLE !== '1') await import('./bundle-cli.mjs');
if (existsSync('web/main.tsx')) await import('./bundle-web.mjs');
if (existsSync('dist/cli/main.js')) chmodSync('dist/cli/main.js', 0o755);
for (const dir of ['src/demo/fixture', 'src/demo/scripts']) {
  if (existsSync(dir)) cpSync(dir, dir.replace(/^src/, 'dist'), { recursive: true });
}
