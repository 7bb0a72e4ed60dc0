/**
 * `teamd agent --permission-prompt-tool mcp__<server>__<tool>`: when a call
 * needs permission, that MCP tool is asked, as Claude Code asks it: input
 * `{tool_name, input, tool_use_id}`, answer JSON text `{"behavior": "allow",
 * "updatedInput": {…}}` or `{"behavior": "deny", "message": "…"}`. Any other
 * answer, or a tool that is not connected, denies the call with the reason.
 */
import { z } from 'zod';
import type { CanUseTool } from '../agent/permissions/types.js';
import type { HookMcpAnswer, HookMcpCall } from '../hooks/types.js';
import { claudeCodeToolName } from '../tools/claude-names.js';
import { CliError } from './cli-error.js';

type McpCaller = (call: HookMcpCall) => Promise<HookMcpAnswer>;

const AnswerSchema = z.union([
  z.object({ behavior: z.literal('allow'), updatedInput: z.record(z.string(), z.unknown()).optional() }),
  z.object({ behavior: z.literal('deny'), message: z.string().optional() }),
]);

function parseName(name: string): { server: string; tool: string } {
  const parts = /^mcp__(.+?)__(.+)$/.exec(name);
  if (!parts) throw new CliError(`teamd agent --permission-prompt-tool: "${name}" is not an MCP tool name (mcp__<server>__<tool>)`);
  return { server: parts[1]!, tool: parts[2]! };
}

function decisionOf(answer: HookMcpAnswer, name: string): Awaited<ReturnType<CanUseTool>> {
  if (answer.isError) return { behavior: 'deny', message: `${name} failed: ${answer.text}` };
  try {
    const parsed = AnswerSchema.safeParse(JSON.parse(answer.text));
    if (parsed.success)
      return parsed.data.behavior === 'allow'
        ? { behavior: 'allow', ...(parsed.data.updatedInput ? { updatedInput: parsed.data.updatedInput } : {}) }
        : // the tool's message is the tool result as it is, as in Claude Code
          { behavior: 'deny', message: parsed.data.message ?? `denied by ${name}`, asIs: true };
  } catch {
    // falls through: not JSON
  }
  return { behavior: 'deny', message: `${name} answered neither allow nor deny: ${answer.text.slice(0, 200)}` };
}

/** The approver that asks the MCP tool; `caller` is the session's MCP connections once it has them. */
export function permissionPromptTool(name: string, caller: () => McpCaller | undefined): CanUseTool {
  const { server, tool } = parseName(name);
  return async (toolName, input, opts) => {
    const call = caller();
    if (call === undefined) return { behavior: 'deny', message: `${name} is not connected` };
    const answer = await call({
      server,
      tool,
      input: { tool_name: claudeCodeToolName(toolName), input, tool_use_id: opts.toolUseId },
      signal: opts.signal,
    }).catch((e: unknown): HookMcpAnswer => ({ text: (e as Error).message, isError: true }));
    return decisionOf(answer, name);
  };
}
