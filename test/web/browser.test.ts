/**
 * `teamd web` in a real browser (Debian's chromium through playwright-core)
 * on a running team with a scripted model: the graph shows every task, a
 * transcript follows live, a waiting permission request is approved by a
 * click (the teammate then goes on), a review is rejected with a reason, a
 * cross-origin POST riding the cookie is refused, hostile subjects stay
 * text. Screenshots go to test-artifacts/web/ and are checked for structure
 * (elements present, no sideways scroll at 375 and 1440 px), not pixels.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { Lead } from '../../src/lead/lead.js';
import { lastEvents } from '../../src/observe/event-history.js';
import type { LoggedEvent } from '../../src/observe/types.js';
import { listRequests } from '../../src/teammate/requests.js';
import { spawnCli, waitForOutput, type CliRun } from '../e2e/support/cli.js';
import { genericTaskScript, makeTeamRepo, startLead, until, type TeamRepo } from '../e2e/support/harness.js';
import { browserMissing, launch, pageAssets, setHash, shoot } from './support/browser.js';

const missing = browserMissing();
if (missing) console.log(`test/web/browser.test.ts ${missing}`);

const HOSTILE = '<img src=x onerror="window.__xss=1"><script>window.__xss=2</script>';

/** Each view, and what is on it once it has loaded (the structure a screenshot is checked for). */
const VIEW_READY: Record<string, string> = {
  graph: '#graph .node',
  team: '#teammates [data-teammate="ann"]',
  answers: '#approvals, #reviews',
  'agent/ann': '#agent-view .transcript .tr-tool',
  events: '#events .event-list li',
  cost: '#cost .budget',
  mail: '#mail, main .muted',
  cron: '#cron, main .muted',
  merges: '#merges, main .muted',
  'task/t1': '.task-detail .diff',
};

function teamScript() {
  return genericTaskScript([
    { name: 'ask', conversation: 'Task (ask\\S*):', turn: 0, times: 'always', content: [{ type: 'tool_use', name: 'bash', input: { command: 'touch made-by-$1' } }] },
    { name: 'asked', conversation: 'Task (ask\\S*):', turn: 1, times: 'always', content: [{ type: 'text', text: 'ran it' }] },
  ]);
}

function seedTasks(repo: TeamRepo): string[] {
  repo.writeTask('ask-1', { subject: 'run a command that needs permission', owner: 'ann' });
  repo.writeTask('t1', { subject: 'write t1', owner: 'bob', description: `notes: ${HOSTILE}` });
  repo.writeTask('c1', { subject: 'after t1', blockedBy: ['t1'] });
  repo.writeTask('c2', { subject: 'after c1 and ask-1', blockedBy: ['c1', 'ask-1'] });
  repo.writeTask('x1', { subject: HOSTILE, blockedBy: ['ghost'] });
  repo.writeTask('cy1', { subject: 'waits for cy2', blockedBy: ['cy2'] });
  repo.writeTask('cy2', { subject: 'waits for cy1', blockedBy: ['cy1', 'c1'] });
  return ['ask-1', 't1', 'c1', 'c2', 'x1', 'cy1', 'cy2'];
}

/** A page of another origin on 127.0.0.1 that POSTs to the dashboard with the browser's cookie. */
function evilServer(target: string, requestId: string): Promise<Server> {
  const html = `<!doctype html><script>
    fetch(${JSON.stringify(`${target}/api/approve`)}, { method: 'POST', mode: 'no-cors', credentials: 'include',
      headers: { 'content-type': 'text/plain' }, body: JSON.stringify({ id: ${JSON.stringify(requestId)} }) })
      .finally(() => { document.title = 'sent'; });
  </script>`;
  const server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(html));
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

describe.skipIf(missing !== null)('teamd web in chromium', () => {
  let repo: TeamRepo;
  let lead: Lead;
  let events: LoggedEvent[];
  /** The real `teamd web` in its own process, so the page sees the lead as a separate running process. */
  let cli: CliRun;
  let web: { url: string; origin: string };
  let browser: Browser;
  let context: BrowserContext;
  let ids: string[];

  beforeAll(async () => {
    repo = makeTeamRepo({
      script: teamScript(),
      config: { teammates: [{ name: 'ann' }, { name: 'bob' }], review: 'human', worktrees: { mode: 'per-task' }, permissions: { defaultMode: 'acceptEdits' } },
    });
    ids = seedTasks(repo);
    pageAssets(); // built when missing or stale: the CLI serves dist/web/page
    ({ lead, events } = await startLead(repo));
    cli = spawnCli(['web', '--dir', repo.dir, '--port', '0']);
    await waitForOutput(cli, /teamd web: http:\/\/127\.0\.0\.1:\d+\/\?token=\S+/);
    const url = /teamd web: (\S+)/.exec(cli.output())![1]!;
    web = { url, origin: new URL(url).origin };
    browser = await launch();
    context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    cli?.child.kill('SIGTERM');
    await cli?.exited;
    await lead?.stop('test over');
    repo?.cleanup();
  });

  const open = async (hash: string): Promise<Page> => {
    const page = await context.newPage();
    await page.goto(web.url);
    await setHash(page, hash);
    return page;
  };

  it('draws every task, marks the dangling blocker, and shows hostile text as text', async () => {
    const page = await open('#/graph');
    for (const id of ids) await page.locator(`.node[data-task="${id}"]`).waitFor();
    expect(await page.locator('.node').count()).toBe(ids.length);
    await page.locator('.dangling').first().waitFor();
    expect(await page.locator('.node.cycle').count()).toBe(2);
    expect(await page.locator('.node.critical').count()).toBeGreaterThanOrEqual(3);
    expect(await page.locator('.node[data-task="x1"] .node-subject').textContent()).toContain('<img');
    await page.goto(`${web.origin}/#/task/t1`);
    await page.locator('.task-detail .description').waitFor();
    expect(await page.locator('.task-detail .description').textContent()).toContain('<script>');
    expect(await page.evaluate('window.__xss')).toBeUndefined();
    expect(await page.locator('img').count()).toBe(0);
    await page.close();
  });

  it('follows a transcript live, approves the waiting request by a click, and the teammate goes on', async () => {
    await until(lead, () => listRequests(repo.dir, 'pending').length === 1, 60_000, 'the permission request');
    const request = listRequests(repo.dir, 'pending')[0]!;
    const transcript = await open('#/agent/ann');
    await transcript.locator('.tr-tool[data-tool="bash"]').waitFor();
    const before = await transcript.locator('.transcript > *').count();

    // the attacker's POST is answered (its fetch settles) before the title changes; the request must stay pending
    const evil = await evilServer(web.origin, request.id);
    const attacker = await context.newPage();
    await attacker.goto(`http://127.0.0.1:${(evil.address() as AddressInfo).port}/`);
    await attacker.waitForFunction("document.title === 'sent'");
    evil.close();
    expect(listRequests(repo.dir, 'pending').map((r) => r.id)).toEqual([request.id]);

    const answers = await open('#/answers');
    await answers.locator(`[data-request="${request.id}"] button[data-action="approve"]`).click();
    await until(lead, () => events.some((e) => e.type === 'review_requested' && e.task === 'ask-1'), 60_000, 'ask-1 to go on after the approval');
    await transcript.locator('.tr-note.tone-ok').waitFor({ timeout: 30_000 });
    expect(await transcript.locator('.transcript > *').count()).toBeGreaterThan(before);
    expect(await transcript.locator('.tr-tool[data-tool="bash"] .tr-result').count()).toBeGreaterThan(0);
    await answers.close();
    await transcript.close();
  });

  it('rejects a review with a reason; the owner gets it back', async () => {
    await until(lead, () => events.some((e) => e.type === 'review_requested' && e.task === 't1'), 60_000, 't1 in review');
    const detail = await open('#/task/t1');
    await detail.locator('.diff', { hasText: 'out/t1.txt' }).waitFor();
    expect(await detail.locator('.diff .add').allTextContents()).toContain('+done t1\n');
    await detail.locator('.task-detail .transcript .tr-tool[data-tool="write"]').waitFor();
    await detail.close();
    const page = await open('#/answers');
    const card = page.locator('[data-review="t1"]');
    await card.locator('textarea').fill('name the file better');
    await card.locator('button[data-action="review-reject"]').click();
    await page.locator('#answered li', { hasText: 'rejected t1: back to bob' }).waitFor();
    await until(lead, () => lead.tasks.get('t1')?.notes.some((n) => n.text.includes('name the file better')) ?? false, 30_000, 'the reason on t1');
    const logged = (await lastEvents(repo.dir, 500, { types: ['review_answered'] })).events;
    expect(logged.some((e) => e.type === 'review_answered' && e.task === 't1' && !e.accepted && e.by === 'user')).toBe(true);
    await page.close();
  });

  it('is keyboard navigable: Tab reaches the task boxes, Enter opens one; without the token the page is refused', async () => {
    const page = await open('#/graph');
    await page.locator('.node').first().waitFor();
    let focused = '';
    for (let i = 0; i < 40 && !focused; i++) {
      await page.keyboard.press('Tab');
      focused = await page.evaluate<string>("document.activeElement?.closest('.node')?.getAttribute('data-task') ?? ''");
    }
    expect(ids).toContain(focused);
    await page.keyboard.press('Enter');
    await page.locator(`.task-detail[data-task="${focused}"]`).waitFor();
    await page.close();
    const stranger = await browser.newContext();
    const res = await (await stranger.newPage()).goto(`${web.origin}/`);
    expect(res?.status()).toBe(401);
    await stranger.close();
  });

  it('fits 375 px and 1440 px without sideways scroll, in every view', async () => {
    for (const width of [375, 1440]) {
      const page = await context.newPage();
      await page.setViewportSize({ width, height: width === 375 ? 812 : 900 });
      await page.goto(web.url);
      for (const [view, ready] of Object.entries(VIEW_READY)) {
        await setHash(page, `#/${view}`);
        await page.locator(`main[data-view="${view.split('/')[0]}"]`).waitFor();
        await page.locator(ready).first().waitFor();
        await page.locator('header.top h1').waitFor();
        await page.locator('nav a').first().waitFor();
        const shot = await shoot(page, `${view.replace('/', '-')}-${width}`);
        expect(shot.overflowX, `${view} at ${width} px scrolls sideways`).toBeLessThanOrEqual(0);
      }
      await page.close();
    }
  });

  it('makes the README picture: the graph at 1200 × 560 (test-artifacts/web/readme.png; docs/img/web-dashboard.png is a copy)', async () => {
    const page = await context.newPage();
    await page.setViewportSize({ width: 1200, height: 560 });
    await page.goto(web.url);
    for (const id of ids) await page.locator(`.node[data-task="${id}"]`).waitFor();
    const shot = await shoot(page, 'readme');
    expect(shot.overflowX).toBeLessThanOrEqual(0);
    await page.emulateMedia({ colorScheme: 'dark' });
    await setHash(page, '#/team');
    await page.locator('[data-teammate="ann"]').waitFor();
    expect(await page.evaluate<string>('getComputedStyle(document.body).backgroundColor')).toBe('rgb(17, 19, 24)');
    await shoot(page, 'team-dark');
    await page.close();
  });
});
