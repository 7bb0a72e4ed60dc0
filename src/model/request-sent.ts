/**
 * When a model request is on the wire: fetch (undici) publishes on the
 * diagnostics channel `undici:request:bodySent` once a request's body is
 * written to its socket, and `undici:request:headers` when an answer's head
 * arrives. Work that should neither compete with sending the request nor
 * with handling its answer — warm-ups with the model's whole wait to run in
 * (turn-rehearsal.ts) — starts in between. A
 * model client that does not use fetch in this thread never fires them:
 * nothing is started then.
 */
import { subscribe, unsubscribe } from 'node:diagnostics_channel';

export const REQUEST_SENT_CHANNEL = 'undici:request:bodySent';
export const ANSWER_HEAD_CHANNEL = 'undici:request:headers';

/**
 * How long after a request is written a warm-up waits: a real model takes
 * longer than this to answer, while a local fake server answers at once —
 * then the answer comes first and no warm-up competes with it.
 */
export const WARM_UP_DELAY_MS = 20;

/** Calls `fn` once, in the publisher's step, when the next request of this thread has its body sent. Returns a cancel. */
export function afterNextRequestSent(fn: () => void): () => void {
  let armed = true;
  const cancel = (): void => {
    if (!armed) return;
    armed = false;
    unsubscribe(REQUEST_SENT_CHANNEL, onSent);
  };
  const onSent = (): void => {
    cancel();
    run(fn);
  };
  subscribe(REQUEST_SENT_CHANNEL, onSent);
  return cancel;
}

/**
 * Calls `fn` once, `delayMs` after the next request is written, unless an
 * answer's head arrived first (then never). The timer is unref'd; a throw of
 * `fn` is dropped (what it prepares is done by the real call anyway).
 */
export function whileAnswerAwaited(fn: () => void, delayMs = WARM_UP_DELAY_MS): void {
  afterNextRequestSent(() => {
    let answered = false;
    const onHead = (): void => void (answered = true);
    subscribe(ANSWER_HEAD_CHANNEL, onHead);
    setTimeout(() => {
      unsubscribe(ANSWER_HEAD_CHANNEL, onHead);
      if (!answered) run(fn);
    }, delayMs).unref();
  });
}

function run(fn: () => void): void {
  try {
    fn();
  } catch {
    // the channel would rethrow it as an uncaught exception
  }
}
