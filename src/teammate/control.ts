import type { Message } from '../store/types.js';
import type { TeammateHost } from './host.js';
import { controlOf, formatControl } from './protocol.js';

/**
 * Handles a control message addressed to this teammate. Returns true when it
 * was fully handled here (it is acknowledged and never reaches the model);
 * false to let the model see it (e.g. a shutdown request it must decide on).
 */
export function handleControlMessage(host: TeammateHost, msg: Message): boolean {
  const c = controlOf(msg);
  if (!c) return false;
  switch (c.kind) {
    case 'permission_response':
    case 'plan_approval_response':
      host.waiters.settle(c.requestId, { approve: c.approve, reason: c.reason, by: c.from, updatedInput: c.kind === 'permission_response' ? c.updatedInput : undefined });
      return true;
    case 'shutdown_request': {
      const requestId = c.requestId || msg.id;
      if (!host.deps.data.teammate.autoApproveShutdown) {
        host.shutdownRequests.set(requestId, c.from);
        return false;
      }
      void respondShutdown(host, requestId, c.from, true, 'auto-approved');
      return true;
    }
    default:
      return false;
  }
}

/** Sends the shutdown response; an approval stops the teammate after its current step. */
export async function respondShutdown(
  host: TeammateHost,
  requestId: string,
  to: string,
  approve: boolean,
  reason: string,
): Promise<string> {
  const response = { kind: 'shutdown_response' as const, from: host.name, requestId, approve, reason };
  const message = {
    from: host.name,
    type: 'shutdown_response' as const,
    content: formatControl(response),
    metadata: { request_id: requestId, approve, reason },
  };
  let sent = await host.deps.mailbox.send({ ...message, to });
  if (!sent.ok) sent = await host.deps.mailbox.send({ ...message, to: 'lead' }); // the requester may be unknown
  if (sent.ok) host.deps.log({ type: 'message_sent', id: sent.value.id, from: host.name, to: sent.value.to, messageType: 'shutdown_response' });

  host.shutdownRequests.delete(requestId);
  if (approve) host.stop(`shutdown approved (${requestId})`);
  return approve ? 'Shutdown approved: you will stop after this step.' : `Shutdown rejected: ${reason}`;
}
