/**
 * Runs an `http` hook: POSTs the event JSON to the hook's URL and reads the
 * answer as Claude Code does — a 2xx body is the hook's stdout (empty: no
 * say; a JSON object: its decision); any other body, a non-2xx status, a
 * redirect (not followed), a refused URL, a connection failure or a timeout
 * is a non-blocking error. Never throws.
 */
import { resultOf, type ResultOf } from './handler-result.js';
import { DEFAULT_HOOK_TIMEOUT_S } from './hook-process.js';
import type { HookCommandResult, HookHttp } from './types.js';

const MAX_BODY = 1024 * 1024;
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);

export interface HttpHookCall {
  stdin: string;
  env: NodeJS.ProcessEnv;
  signal?: AbortSignal;
  /** URL patterns (`*` wildcards) allowed besides loopback hosts. */
  allowedUrls?: string[];
}

/** `$VAR` and `${VAR}` in a header value: the variable's value if `allowed` lists it, else an empty string. */
export function interpolateHeader(value: string, allowed: readonly string[], env: NodeJS.ProcessEnv): string {
  return value.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)/g, (_, a?: string, b?: string) => {
    const name = (a ?? b)!;
    return allowed.includes(name) ? (env[name] ?? '') : '';
  });
}

/** Loopback hosts always; any other URL only when a pattern of `allowedHttpHookUrls` matches it whole. */
export function httpHookUrlAllowed(url: string, patterns: readonly string[] = []): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return false;
  if (LOOPBACK.has(parsed.hostname) || /^127\.\d+\.\d+\.\d+$/.test(parsed.hostname)) return true;
  return patterns.some((p) => wildcard(p).test(url));
}

function wildcard(pattern: string): RegExp {
  const escaped = pattern.split('*').map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`^${escaped.join('.*')}$`);
}

function headersOf(hook: HookHttp, env: NodeJS.ProcessEnv): Record<string, string> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  for (const [name, value] of Object.entries(hook.headers ?? {})) {
    // Claude Code ignores these two: the length comes from the body.
    if (/^(content-length|transfer-encoding)$/i.test(name)) continue;
    headers[name] = interpolateHeader(value, hook.allowedEnvVars ?? [], env);
  }
  return headers;
}

export async function runHttpHook(hook: HookHttp, call: HttpHookCall): Promise<HookCommandResult> {
  const result = resultOf(`POST ${hook.url}`);
  if (!httpHookUrlAllowed(hook.url, call.allowedUrls))
    return result(1, '', `the URL ${hook.url} is not a loopback address and allowedHttpHookUrls does not list it`, {
      notStarted: true,
    });
  const timeout = AbortSignal.timeout((hook.timeout ?? DEFAULT_HOOK_TIMEOUT_S) * 1000);
  const signal = call.signal ? AbortSignal.any([call.signal, timeout]) : timeout;
  try {
    const response = await fetch(hook.url, {
      method: 'POST',
      headers: headersOf(hook, call.env),
      body: call.stdin,
      redirect: 'manual',
      signal,
    });
    const body = (await response.text()).slice(0, MAX_BODY);
    if (response.status < 200 || response.status > 299)
      return result(1, '', `the hook's server answered HTTP ${response.status}${body ? `: ${body.slice(0, 300)}` : ''}`);
    return answerOf(body, result);
  } catch (error) {
    if (timeout.aborted) return result(null, '', 'timed out', { timedOut: true });
    if (call.signal?.aborted) return result(null, '', 'aborted');
    return result(1, '', `the hook's server could not be reached: ${causeOf(error)}`, { notStarted: true });
  }
}

/** A 2xx answer: empty is success, a JSON object is the decision, anything else a non-blocking error. */
function answerOf(body: string, result: ResultOf): HookCommandResult {
  const text = body.trim();
  if (text === '') return result(0, '', '');
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) return result(0, text, '');
  } catch {
    // falls through: not JSON
  }
  return result(1, '', `the hook's server answered with a body that is not a JSON object: ${text.slice(0, 200)}`);
}

function causeOf(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (error as Error).message;
}
