/**
 * Runs an `mcp_tool` hook: calls a configured MCP server's tool with the
 * hook's `input`, whose string values may name fields of the event JSON
 * (`${tool_input.file_path}`); the tool's text is read like a command's
 * stdout, an error answer is a non-blocking error. Never throws.
 */
import { resultOf } from './handler-result.js';
import { DEFAULT_HOOK_TIMEOUT_S } from './hook-process.js';
import type { HookCommandResult, HookMcpAnswer, HookMcpCall, HookMcpTool } from './types.js';

/** `${a.b.c}` in a string: that field of the event (objects as JSON), or empty when absent. */
export function interpolateEventFields(text: string, event: Record<string, unknown>): string {
  return text.replace(/\$\{([A-Za-z0-9_.]+)\}/g, (_, dotted: string) => {
    let value: unknown = event;
    for (const key of dotted.split('.'))
      value = typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined;
    if (value === undefined || value === null) return '';
    return typeof value === 'string' ? value : JSON.stringify(value);
  });
}

function inputOf(hook: HookMcpTool, event: Record<string, unknown>): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(hook.input ?? {}))
    input[key] = typeof value === 'string' ? interpolateEventFields(value, event) : value;
  return input;
}

export async function runMcpToolHook(
  hook: HookMcpTool,
  event: Record<string, unknown>,
  call: ((c: HookMcpCall) => Promise<HookMcpAnswer>) | undefined,
  signal?: AbortSignal,
): Promise<HookCommandResult> {
  const result = resultOf(`mcp__${hook.server}__${hook.tool}`);
  if (call === undefined) return result(1, '', 'no MCP servers are connected here', { notStarted: true });
  const timeout = AbortSignal.timeout((hook.timeout ?? DEFAULT_HOOK_TIMEOUT_S) * 1000);
  const both = signal ? AbortSignal.any([signal, timeout]) : timeout;
  try {
    const answer = await call({ server: hook.server, tool: hook.tool, input: inputOf(hook, event), signal: both });
    return answer.isError ? result(1, '', answer.text) : result(0, answer.text, '');
  } catch (error) {
    if (timeout.aborted) return result(null, '', 'timed out', { timedOut: true });
    return result(1, '', (error as Error).message, { notStarted: true });
  }
}
