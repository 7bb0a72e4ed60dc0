/**
 * Turning failures into `ModelError` data. The classification drives the retry
 * loop: rate limits, overloads, server errors and connection failures can
 * succeed on a later try; bad requests, bad keys and too-long prompts cannot.
 */
import type { ModelError, ModelErrorKind } from './types.js';

const RETRYABLE: Record<ModelErrorKind, boolean> = {
  rate_limit: true,
  overloaded: true,
  server: true,
  connection: true,
  prompt_too_long: false,
  auth: false,
  invalid_request: false,
};

export const isRetryableKind = (kind: ModelErrorKind): boolean => RETRYABLE[kind];

export function modelError(kind: ModelErrorKind, message: string, status?: number): ModelError {
  return status === undefined
    ? { kind, message, retryable: RETRYABLE[kind] }
    : { kind, message, retryable: RETRYABLE[kind], status };
}

const PROMPT_TOO_LONG = /prompt is too long|prompt too long|context (window|length) exceeded/i;

/** The kind an HTTP status means, given the API's message (400 may be a too-long prompt). */
export function kindOfStatus(status: number, message: string): ModelErrorKind {
  if (status === 429) return 'rate_limit';
  if (status === 529) return 'overloaded';
  if (status >= 500) return 'server';
  if (status === 401 || status === 403) return 'auth';
  if (status === 408) return 'connection';
  if (status === 409) return 'server'; // a conflict on the server's side (a lock): gone on a later try
  if ((status === 400 || status === 413) && PROMPT_TOO_LONG.test(message)) return 'prompt_too_long';
  return 'invalid_request';
}

/** The kind of an error the API streamed mid-response (an SSE `error` event: no HTTP status). */
export function kindOfErrorType(type: string | null, message: string): ModelErrorKind {
  switch (type) {
    case 'overloaded_error':
      return 'overloaded';
    case 'rate_limit_error':
      return 'rate_limit';
    case 'authentication_error':
    case 'permission_error':
      return 'auth';
    case 'invalid_request_error':
      return PROMPT_TOO_LONG.test(message) ? 'prompt_too_long' : 'invalid_request';
    default:
      return 'server';
  }
}
