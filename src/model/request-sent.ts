/**
 * When a model request is on the wire: fetch (undici) publishes on the
 * diagnostics channel `undici:request:bodySent` once a request's body is
 * written to its socket. Work that should not compete with sending the
 * request — but has the whole wait for the answer to run in — starts then
 * (turn-rehearsal.ts, src/agent/rehearse-tools.ts). A model client that does not use fetch in
 * this thread never fires it: nothing is started then.
 */
import { subscribe, unsubscribe } from 'node:diagnostics_channel';

export const REQUEST_SENT_CHANNEL = 'undici:request:bodySent';

/**
 * Calls `fn` once, synchronously in the publisher's step, when the next
 * request of this thread has its body sent. Not in an immediate: when the
 * answer is already readable, the loop reads and handles it (up to the tool
 * calls it asks for) before any immediate runs. A throw of `fn` is dropped
 * (the channel would rethrow it as an uncaught exception). Returns a cancel
 * (a no-op once fired).
 */
export function afterNextRequestSent(fn: () => void): () => void {
  let armed = true;
  const cancel = (): void => {
    if (!armed) return;
    armed = false;
    unsubscribe(REQUEST_SENT_CHANNEL, onSent);
  };
  const onSent = (): void => {
    cancel();
    try {
      fn();
    } catch {
      // what it prepares is prepared again, or done by the call itself
    }
  };
  subscribe(REQUEST_SENT_CHANNEL, onSent);
  return cancel;
}
