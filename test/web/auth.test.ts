/**
 * The gate of `teamd web` over real HTTP: no token, no page; the token URL
 * sets an HttpOnly SameSite=Strict cookie; a POST needs the cookie, the
 * token header and the page's own Origin; a foreign Host is refused; only
 * GET and POST exist. Hostile ids in URLs are 400/404, never a 500.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pageHeaders, raw, TOKEN, webRepo, type WebRepo } from './support/server.js';

let repo: WebRepo;
let port: number;
const cookie = { cookie: `teamd_web=${TOKEN}` };

beforeAll(async () => {
  repo = await webRepo();
  port = repo.web.port;
  repo.writeTask('t1', { subject: 'a task' });
});
afterAll(() => repo.close());

describe('the token', () => {
  it('refuses every page without it', async () => {
    for (const path of ['/', '/app.js', '/app.css', '/api/state', '/api/stream', '/api/task/t1', '/api/events'])
      expect((await raw(port, 'GET', path, {})).status, path).toBe(401);
    expect((await raw(port, 'GET', '/api/state', { cookie: 'teamd_web=wrong' })).status).toBe(401);
  });

  it('the printed URL sets an HttpOnly SameSite=Strict cookie and drops the token from the address', async () => {
    const first = await raw(port, 'GET', `/?token=${TOKEN}`, {});
    expect(first.status).toBe(303);
    expect(first.headers.location).toBe('/');
    expect(String(first.headers['set-cookie'])).toMatch(/teamd_web=.+; HttpOnly; SameSite=Strict; Path=\//);
    expect((await raw(port, 'GET', '/?token=nope', {})).status).toBe(401);
    expect((await raw(port, 'GET', `/.//evil.example/?token=${TOKEN}`, {})).headers.location).toBe('/');
    expect((await raw(port, 'GET', `/?token=${TOKEN}#/task/t1`, {})).headers.location).toBe('/');
    const page = await raw(port, 'GET', '/', cookie);
    expect(page.status).toBe(200);
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
  });

  it('refuses a foreign Host (DNS rebinding) and methods other than GET and POST', async () => {
    expect((await raw(port, 'GET', '/api/state', { ...cookie, host: `evil.example:${port}` })).status).toBe(403);
    expect((await raw(port, 'PUT', '/api/approve', pageHeaders(port), '{}')).status).toBe(405);
    expect((await raw(port, 'DELETE', '/api/state', cookie)).status).toBe(405);
  });
});

describe('state-changing requests', () => {
  const body = JSON.stringify({ id: 'perm-abc' });

  it('refuse a cross-origin POST even with the cookie and the header', async () => {
    const refused = repo.web.stats.refused;
    for (const origin of ['http://evil.example', `http://127.0.0.1:${port + 1}`, 'null'])
      expect((await raw(port, 'POST', '/api/approve', { ...pageHeaders(port), origin }, body)).status, origin).toBe(403);
    expect(repo.web.stats.refused).toBe(refused + 3);
  });

  it('refuse a POST without the token header, without an Origin, or not JSON', async () => {
    const { 'x-teamd-token': _, ...noHeader } = pageHeaders(port);
    expect((await raw(port, 'POST', '/api/approve', noHeader, body)).status).toBe(403);
    const { origin: __, ...noOrigin } = pageHeaders(port);
    expect((await raw(port, 'POST', '/api/approve', noOrigin, body)).status).toBe(403);
    expect((await raw(port, 'POST', '/api/approve', { ...pageHeaders(port), 'content-type': 'text/plain' }, body)).status).toBe(400);
    expect((await raw(port, 'POST', '/api/approve', pageHeaders(port), '{not json')).status).toBe(400);
  });

  it('a bad body is a 400 naming the field; an unknown request is a 409 saying so', async () => {
    const bad = await raw(port, 'POST', '/api/approve', pageHeaders(port), JSON.stringify({ id: '../x' }));
    expect(bad.status).toBe(400);
    expect(bad.body).toContain('id');
    const extra = await raw(port, 'POST', '/api/accept', pageHeaders(port), JSON.stringify({ task: 't1', sneaky: 1 }));
    expect(extra.status).toBe(400);
    const unknown = await raw(port, 'POST', '/api/approve', pageHeaders(port), body);
    expect(unknown.status).toBe(409);
    expect(unknown.body).toContain('perm-abc');
    expect((await raw(port, 'POST', '/api/accept', pageHeaders(port), JSON.stringify({ task: 't1' }))).body).toContain('not waiting for a review');
    expect((await raw(port, 'POST', '/api/state', pageHeaders(port), '{}')).status).toBe(404);
  });
});

describe('hostile ids', () => {
  it('are 400 (not an id) or 404 (no such thing), never a server error', async () => {
    const cases = ['..%2F..%2Fetc%2Fpasswd', '%2e%2e', '%E0%A4%A', 'a%00b', '<script>', '-rf', 'x'.repeat(65)];
    for (const c of cases) expect([400, 404], c).toContain((await raw(port, 'GET', `/api/task/${c}`, cookie)).status);
    expect((await raw(port, 'GET', '/api/task/nope', cookie)).status).toBe(404);
    expect((await raw(port, 'GET', '/api/task/t1/more', cookie)).status).toBe(404);
    expect((await raw(port, 'GET', '/api/nothing', cookie)).status).toBe(404);
    expect((await raw(port, 'GET', '/api/events?limit=-1', cookie)).status).toBe(400);
    expect((await raw(port, 'GET', '/api/events?agent=../x', cookie)).status).toBe(400);
  });

  it('generated: any path segment gives 200, 400 or 404', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 80 }), fc.constantFrom('task', 'transcript'), async (s, what) => {
        const status = (await raw(port, 'GET', `/api/${what}/${encodeURIComponent(s)}`, cookie)).status;
        expect([200, 400, 404]).toContain(status);
      }),
      { numRuns: 150 },
    );
  });
});
