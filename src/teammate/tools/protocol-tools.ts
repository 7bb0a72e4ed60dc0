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
    'Plan mode: send your plan to the lead for approval and wait for the answer. Until a plan is approved, ' +
    'editing tools are refused. If rejected, revise the plan using the feedback and ask again.',
  inputSchema: z.strictObject({ plan: z.string().min(1).describe('What you will change, file by file, and how you will verify it') }),
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
    'Answer a <shutdown_request>: approve (you stop after this step; your task goes back to the board) ' +
    'or reject with a reason (e.g. you are about to finish).',
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
