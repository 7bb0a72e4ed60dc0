import { z } from 'zod';
import { defineTool, type ToolContext } from '../../tools/types.js';

/** What the protocol tools reach through `ctx.services.protocol`. */
export interface ProtocolServices {
  /** Files a plan approval request and waits for the verdict. */
  requestPlanApproval(plan: string, signal: AbortSignal): Promise<{ approved: boolean; reason: string }>;
  /** Answers a shutdown request addressed to this teammate. */
  respondShutdown(requestId: string, approve: boolean, reason: string): Promise<string>;
}

const protocol = (ctx: ToolContext): ProtocolServices => {
  const p = ctx.services.protocol as ProtocolServices | undefined;
  if (!p) throw new Error('protocol tools run only inside a team');
  return p;
};

export const requestPlanApprovalTool = defineTool({
  name: 'request_plan_approval',
  description:
    'Send your plan to the lead and wait; editing is refused until one is approved.',
  inputSchema: z.strictObject({ plan: z.string().min(1).describe('Changes, file by file, and how you will verify them') }),
  isReadOnly: () => true,
  isConcurrencySafe: () => false,
  run: async (input, ctx) => {
    const verdict = await protocol(ctx).requestPlanApproval(input.plan, ctx.signal);
    return verdict.approved
      ? { content: `Plan approved${verdict.reason ? `: ${verdict.reason}` : ''}. You may now edit files.`, summary: 'plan approved' }
      : { content: `Plan not approved: ${verdict.reason || 'no reason given'}. Revise it and ask again.`, summary: 'plan rejected' };
  },
});

export const shutdownResponseTool = defineTool({
  name: 'shutdown_response',
  description:
    'Answer a <shutdown_request>: approve (stop after this step) or reject with a reason.',
  inputSchema: z.strictObject({
    request_id: z.string(),
    approve: z.boolean(),
    reason: z.string().default(''),
  }),
  isReadOnly: () => true,
  isConcurrencySafe: () => false,
  run: async (input, ctx) => ({
    content: await protocol(ctx).respondShutdown(input.request_id, input.approve, input.reason),
  }),
});
