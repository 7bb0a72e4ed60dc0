/** The fault queue, and what each fault does to a response. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { setTimeout as delay } from 'node:timers/promises';
import { factsOf } from '../scripted/conversation.js';
import { emptyUsage } from '../types.js';
import { apiErrorOf, errorBody, sendApiError } from './api-errors.js';
import { startSse, streamEventsOf, writeFrames, type Spoil } from './respond.js';
import type { Fault, MessagesRequestBody } from './types.js';

export type { Spoil } from './respond.js';

export class FaultQueue {
  #faults: Fault[] = [];

  push(faults: readonly Fault[]): void {
    this.#faults.push(...faults);
  }

  /** Removes and returns the first queued fault that fits this request. */
  take(body: MessagesRequestBody, agent: string | undefined): Fault | undefined {
    const text = factsOf({ messages: body.messages }).latestUserText;
    const at = this.#faults.findIndex(({ match }) => {
      if (match?.agent !== undefined && match.agent !== agent) return false;
      return match?.text === undefined || new RegExp(match.text).test(text);
    });
    return at < 0 ? undefined : this.#faults.splice(at, 1)[0];
  }
}

/** Answers with the fault (`'done'`), or says how the normal answer must be spoiled. */
export async function applyFault(
  fault: Fault,
  req: IncomingMessage,
  res: ServerResponse,
  body: MessagesRequestBody,
): Promise<Spoil | 'done'> {
  switch (fault.kind) {
    case 'rate_limit':
      sendApiError(res, { ...apiErrorOf('rate_limit'), headers: retryHeaders(fault) });
      return 'done';
    case 'overloaded':
    case 'prompt_too_long':
      sendApiError(res, apiErrorOf(fault.kind));
      return 'done';
    case 'auth':
      sendApiError(res, fault.status === 403 ? PERMISSION_ERROR : apiErrorOf('auth'));
      return 'done';
    case 'server':
      sendApiError(res, apiErrorOf('server', undefined, fault.status));
      return 'done';
    case 'reset':
      req.socket.resetAndDestroy();
      return 'done';
    case 'stream_error':
      await streamError(res, body, fault.errorType ?? 'overloaded_error');
      return 'done';
    case 'slow_first_byte':
      await delay(fault.delayMs);
      return undefined;
    case 'cut_stream':
      return fault.at === 'after_tool' ? 'cut_after_tool' : 'cut';
    case 'stall_stream':
      return 'stall';
    case 'sse_data_only':
    case 'json_for_stream':
    case 'no_message_delta':
    case 'no_message_stop':
    case 'no_content_block_stop':
      return fault.kind;
  }
}

const PERMISSION_ERROR = {
  status: 403,
  type: 'permission_error',
  message: 'Your API key does not have permission to use the specified resource.',
};

/** The API can fail after the stream started: an SSE `error` event right after `message_start`. */
async function streamError(res: ServerResponse, body: MessagesRequestBody, errorType: string): Promise<void> {
  const answer = { id: 'msg_fake_error', model: body.model, content: [], stopReason: 'end_turn' as const };
  const [start] = streamEventsOf({ ...answer, usage: emptyUsage() });
  startSse(res);
  await writeFrames(res, [start!]);
  const message = errorType === 'overloaded_error' ? 'Overloaded' : errorType;
  res.end(`event: error\ndata: ${errorBody(errorType, message)}\n\n`);
}

function retryHeaders(fault: {
  retryAfter?: number | string;
  retryAfterMs?: number;
}): Record<string, string> {
  const headers: Record<string, string> = {};
  if (fault.retryAfter !== undefined) headers['retry-after'] = String(fault.retryAfter);
  if (fault.retryAfterMs !== undefined) headers['retry-after-ms'] = String(fault.retryAfterMs);
  return headers;
}
