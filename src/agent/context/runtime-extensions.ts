/**
 * The tools a runtime adds to its own from its options, once, before its
 * first run: the memory tools, the tools of its MCP servers, and (for a
 * top-level agent) the `task` tool with the roles it may start. Problems
 * (a bad role file, an MCP server that failed to start) become notices; the
 * rest still loads.
 */
import { join } from 'node:path';
import { BACKGROUND_LOG_DIR_KEY } from '../../tools/bash-background.js';
import type { AnyTool } from '../../tools/types.js';
import { loadMcpTools } from '../mcp/load.js';
import type { McpToolSet } from '../mcp/types.js';
import { memorySearchTool, memoryWriteTool } from '../memory/tools.js';
import type { AgentRuntimeOptions } from '../options.js';
import type { SubagentRuntime } from '../subagents/host.js';
import type { ResultEvent } from '../types.js';
import { defaultModelFor } from '../subagents/model-choice.js';
import { loadRoles } from '../subagents/roles.js';
import { createTaskTool } from '../subagents/task-tool.js';
import { DEFAULT_SUBAGENT_MAX_TURNS } from '../subagents/types.js';
import type { ProjectRoots } from './types.js';

export interface RuntimeExtras {
  tools: AnyTool[];
  /** For `system/notice` events at the first run. */
  notices: string[];
  /** Stops the MCP servers started for the runtime. */
  close(): Promise<void>;
}

export interface ExtrasInput {
  options: AgentRuntimeOptions;
  roots: ProjectRoots;
  sessionId: string;
  /** The runtime's tool session (background logs go under `.team/state/background/<session>/`). */
  session: Map<string, unknown>;
  /** The runtime's tools once the extras are in (a subagent picks from them). */
  tools: () => AnyTool[];
  createRuntime: (options: AgentRuntimeOptions) => SubagentRuntime;
  /** A subagent run ended: its spending goes into the owning runtime's run. */
  addSubagentSpending: (result: ResultEvent) => void;
}

export const memoryDirOf = (options: AgentRuntimeOptions, roots: ProjectRoots): string =>
  options.memory?.dir ?? join(roots.state, '.memory');

function memoryTools(input: ExtrasInput): AnyTool[] {
  const memory = input.options.memory;
  if (memory === undefined || memory.tools === false) return [];
  const dir = memoryDirOf(input.options, input.roots);
  const search = memory.searchModel === undefined ? {} : { searchModel: memory.searchModel };
  return [memoryWriteTool(dir, memory.write), memorySearchTool(dir, search)];
}

async function mcpTools(input: ExtrasInput): Promise<McpToolSet | null> {
  const mcp = input.options.mcp;
  if (mcp === undefined || mcp === false) return null;
  return loadMcpTools(input.roots.project, mcp === true ? {} : mcp);
}

async function taskTool(input: ExtrasInput): Promise<{ tool: AnyTool | null; problems: string[] }> {
  const { options, roots } = input;
  const sub = options.subagents;
  if (sub === undefined || (options.depth ?? 0) > 0) return { tool: null, problems: [] };
  const loaded = await loadRoles(roots.project, sub.roles, {
    projectFiles: sub.roleFiles ?? true,
    ...(sub.userRolesDir === undefined ? {} : { userDir: sub.userRolesDir }),
  });
  const { roles } = loaded;
  const problems = [...loaded.problems, ...loaded.warnings];
  const tool = createTaskTool({
    parent: options,
    parentSessionId: input.sessionId,
    tools: input.tools,
    addSpending: input.addSubagentSpending,
    roles,
    maxTurns: sub.maxTurns ?? DEFAULT_SUBAGENT_MAX_TURNS,
    modelFor: (model) =>
      sub.modelFor && model && model !== 'inherit'
        ? sub.modelFor(model)
        : defaultModelFor(options.model, model),
    startMcp: (servers) =>
      loadMcpTools(roots.project, { ...(typeof options.mcp === 'object' ? options.mcp : {}), only: servers }),
    createRuntime: input.createRuntime,
  });
  return { tool, problems };
}

export async function loadRuntimeExtras(input: ExtrasInput): Promise<RuntimeExtras> {
  input.session.set(
    BACKGROUND_LOG_DIR_KEY,
    join(input.roots.state, '.team', 'state', 'background', input.sessionId),
  );
  const [mcp, task] = await Promise.all([mcpTools(input), taskTool(input)]);
  return {
    tools: [...memoryTools(input), ...(mcp?.tools ?? []), ...(task.tool ? [task.tool] : [])],
    notices: [...task.problems, ...(mcp?.problems ?? []), ...(mcp?.warnings ?? [])],
    close: async () => mcp?.close(),
  };
}
