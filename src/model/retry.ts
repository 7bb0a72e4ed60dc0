/** Retry timing: exponential backoff with jitter, unless the server says how long to wait. */

export interface BackoffOptions {
  /** The first retry waits about this long (doubling each time). */
  baseDelayMs: number;
  /** No computed wait exceeds this. */
  maxDelayMs: number;
  /** A server-given wait above this is cut down to it. */
  maxRetryAfterMs: number;
}

export const DEFAULT_BACKOFF: BackoffOptions = {
  baseDelayMs: 500,
  maxDelayMs: 30_000,
  maxRetryAfterMs: 60_000,
};

/**
 * The wait before retry number `retry` (1-based): `retryAfterMs` when the
 * server sent one, else base·2^(retry−1) with ±25% jitter, capped.
 */
export function backoffDelay(retry: number, retryAfterMs: number | undefined, opts: BackoffOptions): number {
  if (retryAfterMs !== undefined) return Math.min(retryAfterMs, opts.maxRetryAfterMs);
  const exponential = Math.min(opts.baseDelayMs * 2 ** (retry - 1), opts.maxDelayMs);
  const jitter = 1 - Math.random() * 0.25;
  return Math.round(exponential * jitter);
}

/** Reads `retry-after-ms`, then `retry-after` (seconds, or an HTTP date). */
export function retryAfterMs(headers: Headers | undefined, now = Date.now()): number | undefined {
  if (!headers) return undefined;
  const ms = Number.parseFloat(headers.get('retry-after-ms') ?? '');
  if (Number.isFinite(ms) && ms >= 0) return ms;
  const raw = headers.get('retry-after');
  if (raw === null || raw.trim() === '') return undefined;
  const seconds = Number(raw);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(raw);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** Sleeps `ms`, or less if `signal` aborts; resolves false when aborted. */
export function sleep(ms: number, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const onAbort = (): void => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** How many retries a call gets, and how long it may spend on them in all. */
export interface RetryPolicy {
  /** Retries per call (all models together). */
  maxRetries: number;
  /** No retry starts once the call has run this long (its first attempt included). */
  capMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = { maxRetries: 6, capMs: 120_000 };

/**
 * Why no retry may follow after `retries` retries and `elapsedMs`, given the
 * wait the next one would need; null when it may.
 */
export function retryRefusal(
  policy: RetryPolicy,
  retries: number,
  elapsedMs: number,
  delayMs: number,
): string | null {
  if (retries >= policy.maxRetries)
    return `gave up after ${retries} retries (maxRetries ${policy.maxRetries})`;
  if (elapsedMs + delayMs > policy.capMs) {
    return `gave up after ${retries} retries in ${(elapsedMs / 1000).toFixed(1)} s (retry time cap ${policy.capMs / 1000} s)`;
  }
  return null;
}
