import { z } from 'zod';
import { defineTool, type AnyTool, type ToolContext, type ToolOutput } from '../../tools/types.js';
import { answerShutdown, askPlanApproval } from './protocol-tools.js';
import { sentSchema } from './sent-schema.js';
import { teamServices } from './services.js';

/** Who sends: the lead mails only; a teammate also answers shutdown requests; in plan mode it asks for plan approval. */
export type Sender = 'lead' | 'teammate' | 'plan';

const MAIL = 'To a teammate, lead, user or * (all); answer mail only if needed.';
const PLAN =
  ' Plan mode: explore, then send type plan_approval_request, content your plan (changes file by file, how you will verify them), and wait: editing waits for approval.';

const LEAD_SCHEMA = z.strictObject({ to: z.string().optional(), content: z.string().optional() });
const answers = (types: [string, ...string[]]) =>
  LEAD_SCHEMA.extend({ type: z.enum(types).optional(), request_id: z.string().optional(), approve: z.boolean().optional() });
const schemaFor = (sender: Sender): z.ZodObject =>
  sender === 'lead'
    ? LEAD_SCHEMA
    : answers(sender === 'plan' ? ['message', 'shutdown_response', 'plan_approval_request'] : ['message', 'shutdown_response']);
type SendInput = { to?: string; content?: string; type?: string; request_id?: string; approve?: boolean };

/** An ordinary message (or a broadcast to `*`), one mailbox write per recipient. */
export async function sendMail(to: string, content: string, ctx: ToolContext): Promise<ToolOutput> {
  const team = teamServices(ctx);
  const roster = team.roster();
  const broadcast = to === '*';
  if (!broadcast && !roster.includes(to)) {
    return { content: `Unknown recipient "${to}". Valid names: ${roster.join(', ')}, or "*"`, isError: true };
  }
  const targets = broadcast ? roster.filter((n) => n !== team.self && n !== 'user') : [to];
  const sent: string[] = [];
  for (const target of targets) {
    const r = await team.mailbox.send({ from: team.self, to: target, type: broadcast ? 'broadcast' : 'message', content });
    if (!r.ok) return { content: `Sent to ${sent.join(', ') || 'nobody'}; failed for ${target}: ${r.error}`, isError: true };
    team.onSent?.({ id: r.value.id, to: target, type: r.value.type });
    sent.push(target);
  }
  return { content: `Sent to ${sent.join(', ')}`, summary: `message → ${sent.join(', ')}` };
}

const missing = (what: string): ToolOutput => ({ content: `Not sent: ${what}`, isError: true });

function send(input: SendInput, ctx: ToolContext): Promise<ToolOutput> | ToolOutput {
  const type = input.type ?? 'message';
  if (type === 'shutdown_response') {
    if (input.request_id === undefined || input.approve === undefined) return missing('a shutdown_response needs request_id and approve');
    return answerShutdown(input.request_id, input.approve, input.content ?? '', ctx);
  }
  if (!input.content) return missing('content is empty');
  if (type === 'plan_approval_request') return askPlanApproval(input.content, ctx);
  if (input.to === undefined) return missing('to names no recipient');
  return sendMail(input.to, input.content, ctx);
}

function sendMessageFor(sender: Sender): AnyTool {
  const schema = schemaFor(sender);
  return defineTool({
    name: 'send_message',
    // how to answer a <shutdown_request> comes with the request (src/teammate/prompts.ts)
    description: MAIL + (sender === 'plan' ? PLAN : ''),
    inputSchema: schema,
    inputJsonSchema: sentSchema(schema, Object.keys(schema.shape)),
    isReadOnly: () => false,
    // a protocol answer waits for the lead or ends the teammate: never next to another call
    isConcurrencySafe: (input: SendInput) => (input.type ?? 'message') === 'message',
    run: async (input: SendInput, ctx) => send(input, ctx),
  });
}

/** One object per sender, so its JSON Schema is converted once. */
export const SEND_MESSAGE: Record<Sender, AnyTool> = {
  lead: sendMessageFor('lead'),
  teammate: sendMessageFor('teammate'),
  plan: sendMessageFor('plan'),
};
