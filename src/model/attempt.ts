/**
 * One call's attempts, as data: how an attempt ended, the state carried from
 * one attempt to the next, and what a thrown failure means for the retry loop
 * in anthropic.ts.
 */
import { APIError } from '@anthropic-ai/sdk/core/error';
import { classifyError } from './classify.js';
import { withCredentialHint, type ResolvedEndpoint } from './credentials.js';
import { modelError } from './errors.js';
import { MalformedToolInput, type MessageAssembler } from './message-assembler.js';
import { retryAfterMs } from './retry.js';
import type { ModelError, StopReason } from './types.js';

export type AttemptEnd =
  | { status: 'ok'; assembler: MessageAssembler; stopReason: StopReason }
  | { status: 'aborted' | 'empty'; assembler: MessageAssembler }
  | {
      status: 'failed';
      assembler: MessageAssembler;
      error: ModelError;
      retryAfterMs?: number;
      /** Output of this attempt reached the caller (it is void if the call is retried). */
      yielded: boolean;
      /** A tool_use block reached the caller: its tool may be running, so no retry may follow. */
      toolStarted: boolean;
      /** An SSE `error` event: the stream itself failed, not the request. */
      inStream?: boolean;
    };
export type Failed = Extract<AttemptEnd, { status: 'failed' }>;

/** One call across its attempts. */
export interface CallState {
  model: string;
  retries: number;
  overloads: number;
  /** SSE `error` events in a row; at `STREAM_ERRORS_BEFORE_FALLBACK` the call stops streaming. */
  streamErrors: number;
  streaming: boolean;
  startedAt: number;
}

/** SSE `error` events in a row after which a call stops streaming. */
export const STREAM_ERRORS_BEFORE_FALLBACK = 2;

/** A whole (non-streaming) answer that is not a message. */
export class MalformedAnswer extends Error {}

/** What a thrown failure means: its classified error (auth ones naming what to fix), the server's wait, whether the stream itself failed. */
export function failureOf(
  err: unknown,
  endpoint: ResolvedEndpoint,
): { error: ModelError; retryAfterMs?: number; inStream?: boolean } {
  if (err instanceof MalformedToolInput || err instanceof MalformedAnswer) {
    return { error: modelError('server', err.message) };
  }
  const hasCredential = Boolean(endpoint.apiKey || endpoint.authToken);
  const error = withCredentialHint(classifyError(err), { ...endpoint, hasCredential });
  const inStream = err instanceof APIError && err.status === undefined;
  const wait = err instanceof APIError ? retryAfterMs(err.headers) : undefined;
  return {
    error,
    ...(wait === undefined ? {} : { retryAfterMs: wait }),
    ...(inStream ? { inStream } : {}),
  };
}

/** The retryable failure that no retry may follow: its message says why not. */
export const gaveUp = (end: Failed, why: string): Failed => ({
  ...end,
  error: { ...end.error, message: `${end.error.message} (${why})` },
});
