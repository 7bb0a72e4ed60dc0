/** Mail: send as the scope's self, read an inbox (waiting or delivered), acknowledge what was read. */
import { z } from 'zod';
import { MailboxStore } from '../store/mailbox/store.js';
import { MessageSchema, MessageTypeSchema, type Message, type Outcome } from '../store/types.js';
import { AgentName } from './fields.js';
import { mailboxFor, roster } from './stores.js';
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

/** Answers to requests: an agent never sends one (it would answer its own ask, or another's). */
const ANSWERS = new Set(['permission_response', 'plan_approval_response']);

/** `*`: everyone on the roster but the sender and `user`, one message each (as a teammate's send_message). */
const recipientsOf = (to: string, roster: readonly string[], self: string): string[] =>
  to === '*' ? roster.filter((n) => n !== self && n !== 'user') : [to];

export const sendMessage = defineMcpTool({
  name: 'send_message',
  description: 'Mail one member of the team (a teammate, lead or user), or "*" for every teammate and lead.',
  input: z.strictObject({
    to: z.union([z.literal('*'), AgentName]),
    content: MessageSchema.shape.content.min(1),
    type: MessageTypeSchema.optional(),
  }),
  run: async ({ to, content, type }, scope) => {
    if (scope.as !== null && type !== undefined && ANSWERS.has(type)) return refuse(`type: ${type} answers a request; only a person or the lead sends it`);
    const names = await roster(scope);
    if (!names.ok) return refuse(names.error);
    const mailbox = new MailboxStore(scope.repoRoot, { roster: names.value });
    const sent: { id: string; to: string }[] = [];
    for (const name of recipientsOf(to, names.value, selfOf(scope))) {
      const one = await mailbox.send({ from: selfOf(scope), to: name, content, type: type ?? (to === '*' ? 'broadcast' : undefined) });
      if (!one.ok) return refuse(`to: ${one.error}${sent.length ? ` (sent to ${sent.map((m) => m.to).join(', ')} before)` : ''}`);
      sent.push({ id: one.value.id, to: name });
    }
    return ok(to === '*' ? sent : sent[0]);
  },
});

export const inboxRead = defineMcpTool({
  name: 'inbox_read',
  description: 'Messages waiting in an inbox (default user; --as: its own), or with history the delivered ones.',
  input: z.strictObject({
    agent: AgentName.optional(),
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
    agent: AgentName.optional(),
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
