/**
 * The URL space of `teamd web`. Every handler gets checked input: ids match
 * ID_PATTERN (else 400) and name something that exists (else 404); a body
 * is JSON of at most MAX_BODY bytes. Answers are JSON, except the page and
 * its bundle.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { z } from 'zod';
import type { TeamConfig } from '../config/schema.js';
import { ID_PATTERN } from '../store/types.js';
import { ACTIONS, runAction, type Action } from './answers.js';
import { pageHtml, SECURITY_HEADERS, type PageAssets } from './assets.js';
import { taskDetail } from './detail.js';
import type { SseHub } from './sse.js';
import { readTranscript } from './transcript.js';
import { queryEvents } from './views.js';

const MAX_BODY = 64 * 1024;

export interface RouteContext {
  repoRoot: string;
  repoName: string;
  config: TeamConfig;
  token: string;
  assets: PageAssets | null;
  assetsError: string | null;
  hub: SseHub;
  /** The newest snapshot as JSON text (read once if none yet). */
  snapshot(): Promise<string>;
}

export function send(res: ServerResponse, status: number, type: string, body: string | Buffer): void {
  res.writeHead(status, { ...SECURITY_HEADERS, 'content-type': type }).end(body);
}

const json = (res: ServerResponse, status: number, value: unknown): void =>
  send(res, status, 'application/json; charset=utf-8', JSON.stringify(value));

const problem = (res: ServerResponse, status: number, error: string): void => json(res, status, { ok: false, error });

function readBody(req: IncomingMessage): Promise<string | null> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY) resolve(null);
      else chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', () => resolve(null));
  });
}

const EventsQuerySchema = z.object({
  type: z.string().max(2_000).optional(),
  agent: z.string().regex(ID_PATTERN).optional(),
  task: z.string().regex(ID_PATTERN).optional(),
  limit: z.coerce.number().int().min(1).max(2_000).default(200),
});

async function getRoute(ctx: RouteContext, url: URL, res: ServerResponse): Promise<void> {
  const [, first, second, third, ...rest] = url.pathname.split('/');
  if (url.pathname === '/') return send(res, 200, 'text/html; charset=utf-8', pageHtml(ctx.token, ctx.repoName));
  if (url.pathname === '/app.js' || url.pathname === '/app.css') return asset(ctx, url.pathname, res);
  if (first !== 'api' || rest.length) return problem(res, 404, `no such page: ${url.pathname}`);
  if (second === 'state' && third === undefined) return send(res, 200, 'application/json; charset=utf-8', await ctx.snapshot());
  if (second === 'stream' && third === undefined) {
    ctx.hub.add(res, `event: snapshot\ndata: ${await ctx.snapshot()}\n\n`);
    return;
  }
  if (second === 'events' && third === undefined) return events(ctx, url, res);
  if ((second === 'task' || second === 'transcript') && third !== undefined) return byId(ctx, second, safeDecode(third), res);
  return problem(res, 404, `no such page: ${url.pathname}`);
}

function asset(ctx: RouteContext, path: string, res: ServerResponse): void {
  if (!ctx.assets) return send(res, 500, 'text/plain; charset=utf-8', ctx.assetsError ?? 'no page bundle');
  if (path === '/app.js') return send(res, 200, 'text/javascript; charset=utf-8', ctx.assets.js);
  send(res, 200, 'text/css; charset=utf-8', ctx.assets.css);
}

async function events(ctx: RouteContext, url: URL, res: ServerResponse): Promise<void> {
  const q = EventsQuerySchema.safeParse(Object.fromEntries(url.searchParams));
  if (!q.success) return problem(res, 400, `query: ${q.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  const types = q.data.type?.split(',').filter(Boolean);
  json(res, 200, await queryEvents(ctx.repoRoot, { ...q.data, types }));
}

/** A path segment decoded, or '' (not an id: a 400) when its %-escapes are broken. */
function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return '';
  }
}

async function byId(ctx: RouteContext, what: 'task' | 'transcript', id: string, res: ServerResponse): Promise<void> {
  if (!ID_PATTERN.test(id)) return problem(res, 400, `${what}: not a valid id`);
  if (what === 'transcript') return json(res, 200, await readTranscript(ctx.repoRoot, ctx.config, id));
  const detail = await taskDetail(ctx.repoRoot, ctx.config, id);
  if (!detail) return problem(res, 404, `no task ${id}`);
  json(res, 200, detail);
}

async function postRoute(ctx: RouteContext, req: IncomingMessage, url: URL, res: ServerResponse): Promise<void> {
  const action = url.pathname.replace(/^\/api\//, '') as Action;
  if (!url.pathname.startsWith('/api/') || !ACTIONS.includes(action)) return problem(res, 404, `no such action: ${url.pathname}`);
  if (!(req.headers['content-type'] ?? '').startsWith('application/json')) return problem(res, 400, 'body: must be application/json');
  const text = await readBody(req);
  if (text === null) return problem(res, 400, `body: more than ${MAX_BODY} bytes`);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return problem(res, 400, 'body: not JSON');
  }
  try {
    const result = await runAction(ctx.repoRoot, ctx.config, action, body);
    json(res, result.ok ? 200 : 409, result);
  } catch (err) {
    if (!(err instanceof z.ZodError)) throw err;
    problem(res, 400, `body: ${err.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ')}`);
  }
}

export function route(ctx: RouteContext, req: IncomingMessage, url: URL, res: ServerResponse): Promise<void> {
  return req.method === 'POST' ? postRoute(ctx, req, url, res) : getRoute(ctx, url, res);
}
