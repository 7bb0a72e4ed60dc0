import { z } from 'zod';
import { defineTool } from '../../tools/types.js';
import { teamServices } from './services.js';

export const sendMessageTool = defineTool({
  name: 'send_message',
  description:
    'Message a teammate, "lead", "user" or "*" (all).',
  inputSchema: z.strictObject({
    to: z.string(),
    content: z.string().min(1),
  }),
  isReadOnly: () => false,
  isConcurrencySafe: () => true,
  run: async (input, ctx) => {
    const team = teamServices(ctx);
    const roster = team.roster();
    const broadcast = input.to === '*';
    if (!broadcast && !roster.includes(input.to)) {
      return { content: `Unknown recipient "${input.to}". Valid names: ${roster.join(', ')}, or "*"`, isError: true };
    }
    const targets = broadcast ? roster.filter((n) => n !== team.self && n !== 'user') : [input.to];
    const sent: string[] = [];
    for (const to of targets) {
      const r = await team.mailbox.send({ from: team.self, to, type: broadcast ? 'broadcast' : 'message', content: input.content });
      if (!r.ok) return { content: `Sent to ${sent.join(', ') || 'nobody'}; failed for ${to}: ${r.error}`, isError: true };
      team.onSent?.({ id: r.value.id, to, type: r.value.type });
      sent.push(to);
    }
    return { content: `Sent to ${sent.join(', ')}`, summary: `message → ${sent.join(', ')}` };
  },
});
