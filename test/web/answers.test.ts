/**
 * The page's Approve / Reject write what `teamd approve` / `teamd reject`
 * write: the request file answered (with the reason), the teammate's inbox
 * told, the event logged. And a page that learns of the answer through SSE.
 */
import { afterEach, expect, it } from 'vitest';
import { lastEvents } from '../../src/observe/event-history.js';
import { MailboxStore } from '../../src/store/mailbox/index.js';
import { loadRequest, newRequestId, saveRequest } from '../../src/teammate/requests.js';
import { pageHeaders, raw, webRepo, type WebRepo } from './support/server.js';

let repo: WebRepo | undefined;
afterEach(async () => {
  await repo?.close();
  repo = undefined;
});

async function pending(dir: string, summary: string): Promise<string> {
  const id = newRequestId('permission');
  const now = new Date().toISOString();
  await saveRequest(dir, { id, kind: 'permission', agent: 'ann', task: 't1', tool: 'bash', input: { command: 'ls' }, summary, status: 'pending', createdAt: now, expiresAt: null, answer: null });
  return id;
}

it('approve and reject answer the request file with the reason, tell the teammate, and log the answer', async () => {
  const r = (repo = await webRepo());
  const yes = await pending(r.dir, 'run ls');
  const no = await pending(r.dir, 'run rm');
  const port = r.web.port;
  const approved = await raw(port, 'POST', '/api/approve', pageHeaders(port), JSON.stringify({ id: yes }));
  expect(approved.status, approved.body).toBe(200);
  expect(JSON.parse(approved.body)).toMatchObject({ ok: true });
  const rejected = await raw(port, 'POST', '/api/reject', pageHeaders(port), JSON.stringify({ id: no, reason: 'not that one' }));
  expect(JSON.parse(rejected.body)).toMatchObject({ ok: true });
  expect(loadRequest(r.dir, yes)).toMatchObject({ status: 'approved', answer: { by: 'user' } });
  expect(loadRequest(r.dir, no)).toMatchObject({ status: 'rejected', answer: { by: 'user', reason: 'not that one' } });
  const inbox = await new MailboxStore(r.dir).peek('ann');
  expect(inbox.map((m) => m.type)).toEqual(['permission_response', 'permission_response']);
  const events = (await lastEvents(r.dir, 10, { types: ['approval_answered'] })).events;
  expect(events.map((e) => (e as { approved: boolean }).approved)).toEqual([true, false]);
  const again = await raw(port, 'POST', '/api/approve', pageHeaders(port), JSON.stringify({ id: yes }));
  expect(again.status).toBe(409);
});

it('a new request reaches an open event stream as a snapshot', async () => {
  const r = (repo = await webRepo());
  const res = await fetch(`${r.web.origin}/api/stream`, { headers: { cookie: pageHeaders(r.web.port).cookie! } });
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  const id = await pending(r.dir, 'a fresh ask');
  while (!text.includes(id)) text += decoder.decode((await reader.read()).value);
  expect(text).toMatch(/^event: snapshot\ndata: \{/);
  await reader.cancel();
});
