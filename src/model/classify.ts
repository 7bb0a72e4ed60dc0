/**
 * Classifying what the SDK (or the network under it) throws. The error classes
 * come from the SDK's small `core/error` module (the same module instance the
 * client throws from), not its entry: this file must not load the whole SDK.
 */
import { APIConnectionError, APIError, APIUserAbortError } from '@anthropic-ai/sdk/core/error';
import { kindOfErrorType, kindOfStatus, modelError } from './errors.js';
import type { ModelError } from './types.js';

const apiMessage = (err: APIError): string => err.apiMessage ?? err.message;

/** Classifies anything the SDK (or the network under it) can throw. Never throws. */
export function classifyError(err: unknown): ModelError {
  if (err instanceof APIUserAbortError) return modelError('connection', 'request aborted');
  if (err instanceof APIConnectionError) return modelError('connection', describe(err));
  if (err instanceof APIError) {
    const message = apiMessage(err);
    if (err.status === undefined) return modelError(kindOfErrorType(err.type, message), message);
    return modelError(kindOfStatus(err.status, message), message, err.status);
  }
  if (err instanceof Error && /api ?key|authentication|credential/i.test(err.message)) {
    return modelError('auth', err.message);
  }
  // Anything else thrown while reading the body is a broken connection (socket reset, "terminated").
  return modelError('connection', describe(err));
}

function describe(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const cause = err.cause instanceof Error ? `: ${err.cause.message}` : '';
  return `${err.message}${cause}`;
}
