/**
 * Who may use the page. The server listens on 127.0.0.1 only, and even there
 * every request must carry the random token of this run: once in the URL
 * that `teamd web` prints, which sets an HttpOnly SameSite=Strict cookie and
 * redirects to the bare URL; then the cookie. A state-changing request
 * (POST only) must also send the token in a header (the page reads it from
 * its own HTML, which only an authorised request gets) and come from the
 * page's own origin; the Host header must name 127.0.0.1 or localhost (a
 * DNS-rebinding page names its own host). Refusals are data: a status and why.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

export const COOKIE = 'teamd_web';
export const TOKEN_HEADER = 'x-teamd-token';

export const newToken = (): string => randomBytes(24).toString('base64url');

export type Verdict =
  | { ok: true; setCookie?: string; redirect?: string }
  | { ok: false; status: 400 | 401 | 403 | 405; why: string };

/** Equal strings in time that does not depend on where they differ. */
export function sameSecret(a: string | undefined, b: string): boolean {
  if (a === undefined) return false;
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

export function cookieToken(header: string | undefined): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name === COOKIE) return value.join('=');
  }
  return undefined;
}

const allowedHosts = (port: number): string[] => [`127.0.0.1:${port}`, `localhost:${port}`];

function originOk(req: IncomingMessage, port: number): boolean {
  const origin = req.headers.origin ?? refererOrigin(req.headers.referer);
  return origin !== undefined && allowedHosts(port).some((h) => origin === `http://${h}`);
}

function refererOrigin(referer: string | undefined): string | undefined {
  if (!referer) return undefined;
  try {
    return new URL(referer).origin;
  } catch {
    return undefined;
  }
}

export const cookieFor = (token: string): string => `${COOKIE}=${token}; HttpOnly; SameSite=Strict; Path=/`;

/** May this request go on? `url` is the parsed request URL. */
export function checkRequest(req: IncomingMessage, url: URL, token: string, port: number): Verdict {
  if (!allowedHosts(port).includes(req.headers.host ?? '')) return { ok: false, status: 403, why: 'wrong Host header' };
  if (req.method !== 'GET' && req.method !== 'POST') return { ok: false, status: 405, why: 'GET or POST only' };
  const fromUrl = url.searchParams.get('token');
  if (req.method === 'GET' && fromUrl !== null) {
    if (!sameSecret(fromUrl, token)) return { ok: false, status: 401, why: 'wrong token' };
    url.searchParams.delete('token');
    // only a path of this server: `//host` would be a protocol-relative URL elsewhere
    const path = url.pathname.startsWith('//') ? '/' : url.pathname;
    return { ok: true, setCookie: cookieFor(token), redirect: `${path}${url.search}` };
  }
  if (!sameSecret(cookieToken(req.headers.cookie), token))
    return { ok: false, status: 401, why: 'no token: open the URL that `teamd web` printed' };
  if (req.method === 'GET') return { ok: true };
  if (!originOk(req, port)) return { ok: false, status: 403, why: 'cross-origin request refused' };
  const header = req.headers[TOKEN_HEADER];
  if (!sameSecret(typeof header === 'string' ? header : undefined, token))
    return { ok: false, status: 403, why: `missing ${TOKEN_HEADER} header` };
  return { ok: true };
}
