/** Mail: send as the scope's self, read an inbox (waiting or delivered), acknowledge what was read. */
import { z } from 'zod';
import { AgentNameSchema, MessageSchema, MessageTypeSchema, type Message, type Outcome } from '../store/types.js';
import { mailboxFor } from './stores.js';
import { defineMcpTool, ok, refuse, selfOf, type McpScope } from './types.js';

/** The inbox a call reads: the given agent's (default `user`), or under `--as` only its own. */
function inboxOf(scope: McpScope, agent: string | undefined): Outcome<string> {
  if (scope.as === null) return { ok: true, value: agent ?? 'user' };
  if (agent !== undefined && agent !== scope.as)
    return { ok: false, error: `agent: this server acts as ${scope.as}; it reads only that inbox` };
  return { ok: true, value: scope.as };
}

const brief = (m: Message) => ({
  id: m.id,
  from: m.from,
  type: m.type,
  ts: m.ts,
  content: m.content,
  ...(Object.keys(m.metadata).length ? { metadata: m.metadata } : {}),
});

export const sendMessage = defineMcpTool({
  name: 'send_message',
  description: 'Mail one member of the team (a teammate, lead or user); returns the message id.',
  input: z.strictObject({
    to: AgentNameSchema,
    content: MessageSchema.shape.content.min(1),
    type: MessageTypeSchema.optional(),
  }),
  run: async ({ to, content, type }, scope) => {
    const mailbox = await mailboxFor(scope);
    if (!mailbox.ok) return refuse(mailbox.error);
    const sent = await mailbox.value.send({ from: selfOf(scope), to, content, type });
    return sent.ok ? ok({ id: sent.value.id, to }) : refuse(`to: ${sent.error}`);
  },
});

export const inboxRead = defineMcpTool({
  name: 'inbox_read',
  description: 'Messages waiting in an inbox (default user; --as: its own), or with history the delivered ones.',
  input: z.strictObject({
    agent: AgentNameSchema.optional(),
    history: z.boolean().optional(),
    limit: z.number().int().positive().max(1000).optional(),
  }),
  readOnly: true,
  run: async ({ agent, history, limit }, scope) => {
    const inbox = inboxOf(scope, agent);
    if (!inbox.ok) return refuse(inbox.error);
    const mailbox = await mailboxFor(scope);
    if (!mailbox.ok) return refuse(mailbox.error);
    const messages = history ? await mailbox.value.history(inbox.value, limit ?? 50) : await mailbox.value.peek(inbox.value);
    return ok((history || limit === undefined ? messages : messages.slice(0, limit)).map(brief));
  },
});

export const inboxAck = defineMcpTool({
  name: 'inbox_ack',
  description: 'Acknowledge messages read with inbox_read: they move to the archive.',
  input: z.strictObject({
    ids: z.array(MessageSchema.shape.id).min(1).max(1000),
    agent: AgentNameSchema.optional(),
  }),
  run: async ({ ids, agent }, scope) => {
    const inbox = inboxOf(scope, agent);
    if (!inbox.ok) return refuse(inbox.error);
    const mailbox = await mailboxFor(scope);
    if (!mailbox.ok) return refuse(mailbox.error);
    const acked = await mailbox.value.ack(inbox.value, ids);
    return acked.ok ? ok({ acknowledged: acked.value.map((m) => m.id) }) : refuse(acked.error);
  },
});

export const MAIL_TOOLS = [sendMessage, inboxRead, inboxAck];
