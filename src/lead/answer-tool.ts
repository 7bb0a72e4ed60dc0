import { z } from 'zod';
import type { TeamEvent } from '../observe/types.js';
import type { MailboxStore } from '../store/mailbox/index.js';
import { answerRequest, listRequests } from '../teammate/requests.js';
import { defineTool, type ToolContext } from '../tools/types.js';

interface RequestServices {
  repoRoot: string;
  mailbox: MailboxStore;
  log: (e: TeamEvent) => void;
}

const services = (ctx: ToolContext): RequestServices => ctx.services.requests as RequestServices;

export const answerRequestTool = defineTool({
  name: 'answer_request',
  description:
    "Approve or reject a teammate's pending request (a plan in plan mode, or a permission ask) by its request_id. " +
    'Give a reason when rejecting, so the teammate can revise.',
  inputSchema: z.strictObject({
    request_id: z.string(),
    approve: z.boolean(),
    reason: z.string().optional(),
  }),
  isReadOnly: () => false,
  isConcurrencySafe: () => false,
  run: async (input, ctx) => {
    const s = services(ctx);
    const r = await answerRequest(s.repoRoot, s.mailbox, input.request_id, {
      approve: input.approve,
      by: 'lead',
      reason: input.reason,
    });
    if (!r.ok) {
      const open = listRequests(s.repoRoot, 'pending').map((q) => q.id);
      return { content: `${r.error}. Pending: ${open.join(', ') || '(none)'}`, isError: true };
    }
    s.log({
      type: 'approval_answered',
      requestId: input.request_id,
      agent: r.request.agent,
      approved: input.approve,
      by: 'lead',
    });
    return { content: `Request ${input.request_id} ${input.approve ? 'approved' : 'rejected'}.` };
  },
});
