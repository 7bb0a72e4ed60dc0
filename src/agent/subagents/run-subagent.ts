/**
 * One subagent run: SubagentStart hooks, its MCP servers, a fresh runtime at
 * depth 1 with the role's prompt and tools, the prompt, and its final text.
 * Whatever it started is stopped before this returns.
 */
import { join } from 'node:path';
import { hookSession } from '../../hooks/session.js';
import { claudeCodeToolName } from '../../tools/claude-names.js';
import type { AnyTool } from '../../tools/types.js';
import type { McpToolSet } from '../mcp/types.js';
import { DEFAULT_PERMISSION_POLICY, type AgentRuntimeOptions } from '../options.js';
import type { AgentEvent, ResultEvent } from '../types.js';
import type { SubagentHost, SubagentRuntime } from './host.js';
import { roleExtras } from './role-extras.js';
import { TASK_TOOL_NAME, type SubagentRole } from './types.js';

export interface SubagentCall {
  role: SubagentRole;
  prompt: string;
  description: string;
  /** The parent's tool_use id: the subagent's `parent_id`. */
  toolUseId: string;
  signal: AbortSignal;
  /** Sees each of the subagent's events (after the parent's onEvent). */
  onEvent?: (event: AgentEvent) => void;
}

export interface SubagentOutcome {
  /** What the parent gets: the final text, or why there is none. */
  text: string;
  failed: boolean;
  result: ResultEvent | null;
}

/** A list names a tool by teamd or Claude Code name, or (`mcp__server`) every tool of a server. */
const names = (list: string[], tool: AnyTool): boolean =>
  list.some(
    (entry) =>
      entry === tool.name || entry === claudeCodeToolName(tool.name) || tool.name.startsWith(`${entry}__`),
  );

const allowedBy = (role: SubagentRole) => (tool: AnyTool) =>
  (role.tools === undefined || names(role.tools, tool)) && !names(role.disallowedTools ?? [], tool);

/** The role's `permissionMode` and the rules its tool lists carried, on top of the parent's policy. */
export function rolePolicy(
  parent: AgentRuntimeOptions,
  role: SubagentRole,
): AgentRuntimeOptions['permissionPolicy'] {
  const base = parent.permissionPolicy ?? DEFAULT_PERMISSION_POLICY;
  if (role.permissionMode === undefined && !role.allowRules && !role.denyRules) return base;
  return {
    defaultMode: role.permissionMode ?? base.defaultMode,
    allow: [...(base.allow ?? []), ...(role.allowRules ?? [])],
    deny: [...(base.deny ?? []), ...(role.denyRules ?? [])],
    ask: base.ask ?? [],
  };
}

function toolsFor(host: SubagentHost, role: SubagentRole, mcp: McpToolSet | null): AnyTool[] {
  const own = host.tools().filter((t) => t.name !== TASK_TOOL_NAME && allowedBy(role)(t));
  return [...own, ...(mcp?.tools ?? []).filter((t) => !names(role.disallowedTools ?? [], t))];
}

async function optionsFor(
  host: SubagentHost,
  call: SubagentCall,
  tools: AnyTool[],
  notes: string[],
): Promise<AgentRuntimeOptions> {
  const { parent } = host;
  const { role } = call;
  const model = await host.modelFor(role.model);
  const extras = await roleExtras(parent, role, model);
  notes.push(...extras.notes);
  const sessionId = `${host.parentSessionId.slice(0, 24)}.${call.toolUseId}`;
  const onEvent = (event: AgentEvent): void => {
    parent.onEvent?.(event);
    call.onEvent?.(event);
  };
  const {
    subagents: _s,
    mcp: _m,
    resume: _r,
    tools: _t,
    systemPrompt: _p,
    appendSystemPrompt: _a,
    ...inherited
  } = parent;
  return {
    ...inherited,
    model,
    tools,
    systemPrompt: extras.prompt,
    ...(extras.hooks === undefined ? {} : { hooks: extras.hooks }),
    agentName: `${parent.agentName ?? 'agent'}:${role.name}`,
    role: role.description,
    maxTurns: role.maxTurns ?? host.maxTurns,
    sessionId,
    ...(rolePolicy(parent, role) === undefined ? {} : { permissionPolicy: rolePolicy(parent, role) }),
    parentId: call.toolUseId,
    depth: 1,
    agentType: role.name,
    parentHookSession: parentHookSession(host),
    onEvent,
    // the parent's memory tools are among `tools` when its role allows them; the index is still injected
    ...(parent.memory === undefined ? {} : { memory: { ...parent.memory, tools: false } }),
    ...(parent.transcriptDir === undefined ? {} : { transcriptDir: join(parent.transcriptDir, 'subagents') }),
  };
}

/** The parent's session as its hooks name it: a subagent's hooks speak of it too. */
function parentHookSession(host: SubagentHost): { session_id: string; transcript_path: string } {
  const dir = host.parent.transcriptDir;
  return hookSession({ sessionId: host.parentSessionId, ...(dir === undefined ? {} : { transcriptDir: dir }) });
}

/** SubagentStart hooks (they cannot stop it; Claude Code's rule): their context is given to the subagent. */
async function startHook(host: SubagentHost, call: SubagentCall): Promise<string | null> {
  const hooks = host.parent.hooks;
  if (hooks === undefined || !hooks.has('SubagentStart')) return null;
  const payload = {
    ...parentHookSession(host),
    permission_mode: host.parent.permissionPolicy?.defaultMode ?? 'acceptEdits',
    agent_id: call.toolUseId,
    agent_type: call.role.name,
    description: call.description,
  };
  const outcome = await hooks.run('SubagentStart', payload, { matchValue: call.role.name, signal: call.signal });
  return outcome.additionalContext ?? null;
}

async function play(
  runtime: SubagentRuntime,
  prompt: string,
  signal: AbortSignal,
): Promise<ResultEvent | null> {
  const interrupt = (): void => runtime.interrupt();
  signal.addEventListener('abort', interrupt, { once: true });
  let result: ResultEvent | null = null;
  try {
    for await (const event of runtime.submitMessage(prompt)) {
      if (event.type === 'result') result = event;
      if (signal.aborted) runtime.interrupt();
    }
  } finally {
    signal.removeEventListener('abort', interrupt);
  }
  return result;
}

function outcomeOf(result: ResultEvent | null, notes: string[]): SubagentOutcome {
  if (result === null) return { text: 'The subagent ended without a result.', failed: true, result };
  const answer = result.result.trim();
  const failed = result.subtype !== 'success';
  const why = failed
    ? [`[the subagent stopped: ${result.subtype}${result.error ? ` — ${result.error}` : ''}]`]
    : [];
  const text = [answer === '' ? '(the subagent gave no final answer)' : answer, ...why, ...notes].join(
    '\n\n',
  );
  return { text, failed, result };
}

export async function runSubagent(host: SubagentHost, call: SubagentCall): Promise<SubagentOutcome> {
  const context = await startHook(host, call);
  const prompt = context === null ? call.prompt : `${call.prompt}\n\n${context}`;
  const servers = call.role.mcpServers ?? [];
  const mcp = servers.length > 0 ? await host.startMcp(servers) : null;
  const notes = (mcp?.problems ?? []).map((p) => `[MCP server skipped: ${p}]`);
  let runtime: SubagentRuntime | null = null;
  try {
    runtime = host.createRuntime(await optionsFor(host, call, toolsFor(host, call.role, mcp), notes));
    const result = await play(runtime, prompt, call.signal);
    if (result) host.addSpending(result); // what the subagent spent is the parent's spending too
    return outcomeOf(result, notes);
  } finally {
    await runtime?.close();
    await mcp?.close();
  }
}
