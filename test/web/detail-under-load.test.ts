/**
 * A task's detail view fills while snapshots come faster than its fetch
 * (chromium). The page's task-detail answer is held until the page asks
 * again or has taken in three more snapshots — a diff slower than the board
 * changes — while the task file changes every few ms. A view that dropped its
 * running fetch at every new snapshot never filled here (checked against the
 * old web/detail-views.tsx); one fetch at a time, the newest result shown for
 * its own id, fills it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { browserMissing, launch, pageAssets, setHash } from './support/browser.js';
import { TOKEN, webRepo, type WebRepo } from './support/server.js';

const missing = browserMissing();
if (missing) console.log(`test/web/detail-under-load.test.ts ${missing}`);

const VERSION = "Number(document.querySelector('#view')?.getAttribute('data-version') ?? 0)";
const versionOf = (page: Page): Promise<number> => page.evaluate<number>(VERSION);

/** An expression that resolves once the page has taken in its `n`th snapshot (a string: the page's CSP refuses eval, not CDP's). */
const versionReached = (n: number): string => `new Promise((resolve) => {
  const seen = () => ${VERSION} >= ${n};
  if (seen()) return resolve(true);
  const o = new MutationObserver(() => seen() && (o.disconnect(), resolve(true)));
  o.observe(document.body, { attributes: true, childList: true, subtree: true, attributeFilter: ['data-version'] });
})`;

/**
 * Holds each task-detail request until the page asks again (a fetch started
 * after this one, so the view has moved past it) or, when it does not, until
 * the page has taken in `more` snapshots since: every answer comes later than
 * the next snapshot.
 */
async function slowTaskDetail(page: Page, more: number): Promise<{ asked: () => number }> {
  let asked = 0;
  let nextAsk: () => void = () => undefined;
  await page.route(/\/api\/task\//, async (route) => {
    asked += 1;
    nextAsk();
    const askedAgain = new Promise<void>((resolve) => (nextAsk = resolve));
    const from = await versionOf(page);
    const moreSnapshots = page.evaluate(versionReached(from + more));
    await Promise.race([askedAgain, moreSnapshots]).catch(() => undefined); // the page may be gone at the end
    await route.continue().catch(() => undefined);
  });
  return { asked: () => asked };
}

describe.skipIf(missing !== null)('the task detail under fast snapshots (chromium)', () => {
  let repo: WebRepo;
  let browser: Browser;

  beforeAll(async () => {
    repo = await webRepo({ teammates: [{ name: 'ann' }] }, pageAssets());
    browser = await launch();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await repo?.close();
  });

  it('fills while the task file changes every few ms and each fetch outlasts three snapshots', async () => {
    repo.writeTask('t1', { subject: 'rev 0', owner: 'ann' });
    const page = await browser.newPage();
    const slow = await slowTaskDetail(page, 3);
    await page.goto(`${repo.web.origin}/?token=${TOKEN}`);
    await page.waitForSelector('#view');
    let rev = 0;
    const churn = setInterval(() => repo.writeTask('t1', { subject: `rev ${++rev}`, owner: 'ann' }), 5);
    try {
      await setHash(page, '#/task/t1');
      await page.waitForSelector('.task-detail[data-task="t1"]', { timeout: 8_000 });
      expect(await page.textContent('.task-detail .task-subject')).toMatch(/^rev \d+$/);
      expect(slow.asked()).toBeGreaterThanOrEqual(1);
      expect(await versionOf(page)).toBeGreaterThanOrEqual(3);
    } finally {
      clearInterval(churn);
      await page.close();
    }
  });
});
