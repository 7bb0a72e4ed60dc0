/** Error responses shaped like the real API's: status, JSON body, `request-id` header. */
import type { ServerResponse } from 'node:http';
import type { ModelErrorKind } from '../types.js';

export interface ApiErrorSpec {
  status: number;
  type: string;
  message: string;
  headers?: Record<string, string>;
}

const BY_KIND: Record<
  Exclude<ModelErrorKind, 'connection'>,
  Omit<ApiErrorSpec, 'message'> & { message: string }
> = {
  rate_limit: {
    status: 429,
    type: 'rate_limit_error',
    message: 'Number of request tokens has exceeded your per-minute rate limit',
  },
  overloaded: { status: 529, type: 'overloaded_error', message: 'Overloaded' },
  server: { status: 500, type: 'api_error', message: 'Internal server error' },
  prompt_too_long: {
    status: 400,
    type: 'invalid_request_error',
    message: 'prompt is too long: 215000 tokens > 200000 maximum',
  },
  auth: { status: 401, type: 'authentication_error', message: 'invalid x-api-key' },
  invalid_request: { status: 400, type: 'invalid_request_error', message: 'invalid request' },
};

/** The HTTP error for a classified kind (a script's injected error), with an optional message and status. */
export function apiErrorOf(
  kind: Exclude<ModelErrorKind, 'connection'>,
  message?: string,
  status?: number,
): ApiErrorSpec {
  const base = BY_KIND[kind];
  return { ...base, status: status ?? base.status, message: message ?? base.message };
}

let counter = 0;
export const requestId = (): string => `req_fake_${(++counter).toString().padStart(6, '0')}`;

export function errorBody(type: string, message: string): string {
  return JSON.stringify({ type: 'error', error: { type, message }, request_id: requestId() });
}

export function sendApiError(res: ServerResponse, spec: ApiErrorSpec): void {
  res.writeHead(spec.status, {
    'content-type': 'application/json',
    'request-id': requestId(),
    ...spec.headers,
  });
  res.end(errorBody(spec.type, spec.message));
}
