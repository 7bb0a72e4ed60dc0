import type { Outcome } from '../store/types.js';
import type { WebhookPayload } from './types.js';

/** Webhook URLs often carry a secret in their path (chat tools do): errors name only the origin. */
export function describeUrl(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return 'the webhook (invalid URL)';
  }
}

/**
 * POSTs `payload` as JSON. Gives up after `timeoutMs`. Every failure —
 * refused, timed out, a non-2xx answer — is returned, never thrown.
 */
export async function postWebhook(
  url: string,
  payload: WebhookPayload,
  timeoutMs = 5000,
): Promise<Outcome<number>> {
  const where = describeUrl(url);
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'user-agent': 'teamd' },
      body: JSON.stringify(payload),
      signal: AbortSignal.timeout(timeoutMs),
    });
    await response.body?.cancel();
    if (!response.ok)
      return {
        ok: false,
        error: `webhook ${where} answered ${response.status} ${response.statusText}`.trimEnd(),
      };
    return { ok: true, value: response.status };
  } catch (err) {
    const e = err as Error & { cause?: { code?: string; message?: string } };
    const why =
      e.name === 'TimeoutError'
        ? `no answer within ${timeoutMs} ms`
        : (e.cause?.code ?? e.cause?.message ?? e.message);
    return { ok: false, error: `webhook ${where} failed: ${why}` };
  }
}
