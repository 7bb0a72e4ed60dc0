/**
 * Generated hostile text in the page (chromium): task subjects, descriptions
 * and notes made of markup, script, quotes, entities and odd Unicode are
 * shown as the characters they are, nothing of them runs or becomes an
 * element. No running team: the page reads the files as they are.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { browserMissing, launch, pageAssets, setHash } from './support/browser.js';
import { webRepo, type WebRepo } from './support/server.js';

const missing = browserMissing();
if (missing) console.log(`test/web/hostile-page.test.ts ${missing}`);

const PIECES = ['<script>window.__xss=1</script>', '<img src=x onerror="window.__xss=2">', '"><svg onload=window.__xss=3>', '&lt;b&gt;', "'; window.__xss=4; '", '\u202e', '{{7*7}}', '</title><b>', 'javascript:window.__xss=5'];
const hostile = fc
  .array(fc.oneof(fc.constantFrom(...PIECES), fc.string({ minLength: 1, maxLength: 12 })), { minLength: 1, maxLength: 4 })
  .map((parts) => parts.join(' ').trim() || 'x')
  .filter((s) => s.length <= 200);

describe.skipIf(missing !== null)('hostile text in the page', () => {
  let repo: WebRepo;
  let browser: Browser;
  let subjects: string[];

  beforeAll(async () => {
    repo = await webRepo(undefined, pageAssets());
    subjects = fc.sample(hostile, { numRuns: 25, seed: 22 });
    const now = new Date().toISOString();
    subjects.forEach((s, i) =>
      repo.writeTask(`h${i}`, { subject: s, description: s, notes: [{ ts: now, by: 'user', text: s }], blockedBy: i ? [`h${i - 1}`] : [] }),
    );
    browser = await launch();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await repo?.close();
  });

  it('shows every generated subject, description and note as text, and runs none of it', async () => {
    const page = await browser.newPage();
    await page.goto(repo.web.url);
    await page.locator('.node').nth(subjects.length - 1).waitFor();
    const titles = await page.locator('.node title').allTextContents();
    for (const [i, s] of subjects.entries()) expect(titles.find((t) => t.startsWith(`h${i}: `))).toContain(s);
    for (const i of [0, 7, subjects.length - 1]) {
      await setHash(page, `#/task/h${i}`);
      await page.locator(`.task-detail[data-task="h${i}"]`).waitFor();
      expect(await page.locator('.task-detail .task-subject').textContent()).toBe(subjects[i]);
      expect(await page.locator('.task-detail .description').textContent()).toBe(subjects[i]);
      expect(await page.locator('.task-detail .note-text').textContent()).toBe(subjects[i]);
    }
    expect(await page.evaluate('window.__xss')).toBeUndefined();
    expect(await page.locator('main img, main script, main svg svg, main b').count()).toBe(0);
    await page.close();
  });
});
