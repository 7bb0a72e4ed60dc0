/**
 * The browser tests' parts: the page bundle (built by scripts/bundle-web.mjs
 * when missing or older than web/), Debian's chromium driven by
 * playwright-core with the flags of STACK.md (never `playwright install`),
 * and the checks every screenshot gets: elements present, no sideways scroll.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { loadAssets, packageRoot, type PageAssets } from '../../../src/web/assets.js';

export const CHROMIUM = '/usr/bin/chromium';
export const ARTIFACTS = join(packageRoot(), 'test-artifacts', 'web');

const newest = (dir: string): number =>
  Math.max(0, ...readdirSync(dir).map((f) => statSync(join(dir, f)).mtimeMs));

/** The page bundle, built first when it is missing or older than its sources. */
export function pageAssets(): PageAssets {
  const root = packageRoot();
  const bundle = join(root, 'dist', 'web', 'page', 'app.js');
  if (!existsSync(bundle) || statSync(bundle).mtimeMs < newest(join(root, 'web')))
    execFileSync(process.execPath, [join(root, 'scripts', 'bundle-web.mjs')], { cwd: root, stdio: 'pipe' });
  const loaded = loadAssets();
  if (!loaded.ok) throw new Error(loaded.error);
  return loaded.value;
}

/** Why the browser tests cannot run here, or null. */
export const browserMissing = (): string | null =>
  existsSync(CHROMIUM) ? null : `skipped: ${CHROMIUM} is missing (apt-get install chromium)`;

export function launch(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

/** Saves a screenshot under test-artifacts/web/ and returns whether the page scrolls sideways. */
export async function shoot(page: Page, name: string): Promise<{ file: string; overflowX: number }> {
  mkdirSync(ARTIFACTS, { recursive: true });
  const file = join(ARTIFACTS, `${name}.png`);
  await page.screenshot({ path: file, fullPage: false });
  const overflowX = await page.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth');
  return { file, overflowX };
}

/** Goes to a view of the page (`#/graph`, `#/task/t1`) without reloading it. */
export async function setHash(page: Page, hash: string): Promise<void> {
  await page.evaluate(`location.hash = ${JSON.stringify(hash)}`);
}
