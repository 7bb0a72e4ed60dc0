/**
 * The contracts of `teamd mcp`: the team's files as MCP tools for any MCP
 * client (Claude Code, Cursor, a program with the MCP SDK). Every tool reads
 * and writes the same files through the same stores as the CLI, so it works
 * with or without a running daemon: a task created here is a file in
 * `.tasks/`, a running lead's watcher sees it like one `teamd task add` wrote.
 */
import type { z } from 'zod';

/** Who the server speaks for. */
export interface McpScope {
  /** The repository (its git root). */
  repoRoot: string;
  /**
   * `teamd mcp --as <agent>`: the tools act as that agent — its inbox, its
   * tasks, mail sent from it — and a `permission_prompt` tool routes Claude
   * Code's permission asks to the approvals queue. Null: a person (`user`),
   * who may answer approvals and reviews.
   */
  as: string | null;
}

/** The name mail and notes are written under: the agent of `--as`, else `user`. */
export const selfOf = (scope: McpScope): string => scope.as ?? 'user';

/** What a tool's handler returns: its text (JSON for data) or an error naming the field or file. */
export type ToolReply = { ok: true; text: string } | { ok: false; error: string };

/**
 * One MCP tool: its name, a one-line description, a strict zod input schema
 * (the SDK validates with it and lists it as JSON Schema), and a handler.
 * `scope` says in which mode it exists: `person` only without `--as`
 * (answering approvals, reviews), `agent` only with it (`permission_prompt`).
 */
export interface McpTool<S extends z.ZodObject = z.ZodObject> {
  name: string;
  description: string;
  input: S;
  scope?: 'person' | 'agent';
  /** Read-only tools are annotated so (`readOnlyHint`): a client may run them without asking. */
  readOnly?: boolean;
  run: (input: z.infer<S>, scope: McpScope, signal: AbortSignal) => Promise<ToolReply>;
}

export const defineMcpTool = <S extends z.ZodObject>(tool: McpTool<S>): McpTool => tool;

export const ok = (value: unknown): ToolReply => ({ ok: true, text: typeof value === 'string' ? value : JSON.stringify(value) });
export const refuse = (error: string): ToolReply => ({ ok: false, error });
