/**
 * What a `task` call needs from the runtime that owns the tool. The runtime
 * builds the host (see runtime-extensions.ts); the AgentRuntime constructor
 * comes in as `createRuntime`, so this folder does not import the runtime.
 */
import type { ConversationMessage, ModelClient } from '../../model/types.js';
import type { AnyTool } from '../../tools/types.js';
import type { McpToolSet } from '../mcp/types.js';
import type { AgentRuntimeOptions } from '../options.js';
import type { AgentEvent, ResultEvent } from '../types.js';
import type { SubagentRole } from './types.js';

/** The part of an AgentRuntime a subagent run uses. */
export interface SubagentRuntime {
  submitMessage(input: string): AsyncGenerator<AgentEvent, void>;
  interrupt(): void;
  close(): Promise<void>;
  readonly messages: readonly ConversationMessage[];
}

export interface SubagentHost {
  /** The parent's options: the subagent inherits model, cwd, permissions, approver, hooks, prices, context, memory and onEvent. */
  parent: AgentRuntimeOptions;
  parentSessionId: string;
  /** The parent's tools at call time; the subagent picks from them (never `task`). */
  tools: () => AnyTool[];
  roles: ReadonlyMap<string, SubagentRole>;
  maxTurns: number;
  modelFor: (model: string | undefined) => Promise<ModelClient>;
  /** Starts the named MCP servers for one subagent (the caller closes them). */
  startMcp: (servers: string[]) => Promise<McpToolSet>;
  createRuntime: (options: AgentRuntimeOptions) => SubagentRuntime;
  /** Adds a finished subagent's spending (its result's usage) to the parent's run. */
  addSpending: (result: ResultEvent) => void;
}
