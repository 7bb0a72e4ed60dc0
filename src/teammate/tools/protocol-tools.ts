import type { ToolContext, ToolOutput } from '../../tools/types.js';

/** What the protocol answers reach through `ctx.services.protocol`. */
export interface ProtocolServices {
  /** Files a plan approval request and waits for the verdict. */
  requestPlanApproval(plan: string, signal: AbortSignal): Promise<{ approved: boolean; reason: string }>;
  /** Answers a shutdown request addressed to this teammate. */
  respondShutdown(requestId: string, approve: boolean, reason: string): Promise<string>;
}

const protocol = (ctx: ToolContext): ProtocolServices | undefined =>
  ctx.services.protocol as ProtocolServices | undefined;

const onlyTeammates: ToolOutput = { content: 'Only a teammate answers shutdown requests and asks for plan approval.', isError: true };

/** send_message type plan_approval_request (the old `request_plan_approval`): waits for the lead's verdict. */
export async function askPlanApproval(plan: string, ctx: ToolContext): Promise<ToolOutput> {
  const p = protocol(ctx);
  if (!p) return onlyTeammates;
  const verdict = await p.requestPlanApproval(plan, ctx.signal);
  return verdict.approved
    ? { content: `Plan approved${verdict.reason ? `: ${verdict.reason}` : ''}. You may now edit files.`, summary: 'plan approved' }
    : { content: `Plan not approved: ${verdict.reason || 'no reason given'}. Revise it and ask again.`, summary: 'plan rejected' };
}

/** send_message type shutdown_response (the old `shutdown_response`). */
export async function answerShutdown(requestId: string, approve: boolean, reason: string, ctx: ToolContext): Promise<ToolOutput> {
  const p = protocol(ctx);
  if (!p) return onlyTeammates;
  return { content: await p.respondShutdown(requestId, approve, reason) };
}
