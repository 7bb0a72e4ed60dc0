/**
 * The tool contract. A tool is one file: a zod input schema, a description the
 * model reads, two flags the executor schedules by, and `run`.
 *
 * Failures are data: `run` returns `{ isError: true }` for an environment
 * failure it understands; a thrown error is caught by the executor and reported
 * to the model as an execution failure. Invalid input never reaches `run` (the
 * executor validates with `inputSchema` first).
 */
import type { MediaBlock } from '../model/types.js';
import type { z } from 'zod';

/** What a tool may touch. Everything outside comes in here, so tests can swap it. */
export interface ToolContext {
  /** The agent's root: file tools and bash never leave it. */
  root: string;
  /** More directories the file tools may reach (`--add-dir`, `additionalDirectories`): real paths, none by default. */
  extraRoots?: readonly string[];
  /** The current directory (bash keeps it between calls; always inside `root` or an added directory). */
  cwd: string;
  signal: AbortSignal;
  /** Tool output as it arrives (bash lines, …): becomes `progress` events. */
  onProgress: (text: string) => void;
  /** Which files this agent has read, and their state then (refuses blind edits). */
  fileState: FileStateTracker;
  /** The agent's name (for messages and commits); `agent` when alone. */
  agentName: string;
  /** Session-scoped state shared by tools (bash cwd, todos, background shells, …). */
  session: Map<string, unknown>;
  /** Services injected by the embedding (team tools, subagents, memory, …). */
  services: Record<string, unknown>;
  /** The id of the tool_use block being answered (set by the runtime for each call). */
  toolUseId?: string;
}

export interface FileStateTracker {
  /** Record that the agent has seen `absPath` as it is on disk now. */
  recordRead(absPath: string): Promise<void>;
  /** Null when the agent may write `absPath`; otherwise why not (never read, changed since). */
  checkWritable(absPath: string): Promise<string | null>;
  /** After the agent itself wrote the file: its new state is the known one. */
  recordWrite(absPath: string): Promise<void>;
}

export interface ToolOutput {
  /** Text for the model. */
  content: string;
  isError?: boolean;
  /** A one-line summary for `tool_use_summary` events and logs. */
  summary?: string;
  /** Images and documents for the model, after the text (an MCP tool's image or resource content). */
  media?: MediaBlock[];
}

export interface Tool<S extends z.ZodType = z.ZodType> {
  name: string;
  description: string;
  inputSchema: S;
  /**
   * The JSON Schema the model is shown, when the input schema comes from
   * elsewhere (an MCP server's tool); default: derived from `inputSchema`.
   */
  inputJsonSchema?: Record<string, unknown>;
  /**
   * Callable when the model names it, but never offered: its schema is not
   * sent (an old name kept for transcripts and agent files that use it).
   */
  unlisted?: boolean;
  /** True when the tool never changes anything (permission gate, plan mode). */
  isReadOnly: (input: z.infer<S>) => boolean;
  /** True when the tool may run in parallel with other concurrency-safe calls. */
  isConcurrencySafe: (input: z.infer<S>) => boolean;
  run: (input: z.infer<S>, ctx: ToolContext) => Promise<ToolOutput>;
  /**
   * Warms what the first call would compile (no effect, pure functions only),
   * run before the first model request (src/agent/rehearse-tools.ts).
   */
  rehearse?: () => void;
  /**
   * An input the tool's checks (schema, concurrency, permission gate) are
   * rehearsed on before the first call; never run (src/agent/rehearse-tools.ts).
   */
  rehearsalInput?: z.input<S>;
}

/** Erases the schema type so tools of different inputs fit one list. */
export type AnyTool = Tool<z.ZodType>;
export const defineTool = <S extends z.ZodType>(tool: Tool<S>): AnyTool => tool;
