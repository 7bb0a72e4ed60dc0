/**
 * Subagents: the `task` tool runs a fresh `AgentRuntime` for a side quest,
 * with its own conversation, a role (system prompt and allowed tools) and its
 * own turn limit. Only its final text comes back to the parent as the tool
 * result, so the parent's context grows by the request and the answer only.
 *
 * - A subagent runs at depth 1: it has no `task` tool, so it cannot start
 *   subagents of its own. Its events carry `parent_id` = the tool_use id and
 *   `depth` = 1, and go to the parent's `onEvent` (not into the parent's
 *   stream or transcript).
 * - Synchronous (default): it shares the parent's abort (an interrupt of the
 *   parent interrupts it). With `run_in_background: true` it has its own
 *   abort, the tool answers at once with its id, and the parent gets a
 *   `<task_notification>` with its final text at its next turn.
 * - `SubagentStart` hooks run before it starts; its own end runs
 *   `SubagentStop` hooks (depth > 0). MCP servers named by its role are
 *   started for it alone; those servers and its background shells are
 *   stopped when it ends.
 * - Roles come from `.claude/agents/**.md` of the project, then of the user
 *   (`~/.claude/agents/`; a project role wins on equal names, as in Claude
 *   Code), in Claude Code's format (front matter `name`, `description`,
 *   `tools`, `disallowedTools`, `model`, `permissionMode`, `maxTurns`,
 *   `mcpServers`, `hooks`, `skills`; the body is the system prompt), and from
 *   `SubagentOptions.roles`, which win over both. `general-purpose` is
 *   always there.
 */
import { z } from 'zod';
import type { ModelClient } from '../../model/types.js';
import { IdSchema } from '../../store/types.js';

export const SubagentRoleSchema = z.strictObject({
  name: IdSchema,
  /** When to use it: shown to the parent model in the task tool's description. */
  description: z.string().min(1),
  /** The subagent's system prompt. */
  prompt: z.string().min(1),
  /**
   * Tools it may use, by teamd or Claude Code name (`read` or `Read`), from the
   * parent's tools; all of them (except `task`) when absent. Tools of its MCP
   * servers are always included.
   */
  tools: z.array(z.string().min(1)).optional(),
  /** A model id, an alias (`sonnet`, `opus`, `haiku`), or `inherit` (the default: the parent's model). */
  model: z.string().min(1).optional(),
  /** Servers of `.mcp.json` started for this subagent only. */
  mcpServers: z.array(z.string().min(1)).optional(),
  /** Its turn limit; default `SubagentOptions.maxTurns`. */
  maxTurns: z.number().int().positive().optional(),
  /** Tools taken away from what `tools` (or the parent) gives, by teamd or Claude Code name. */
  disallowedTools: z.array(z.string().min(1)).optional(),
  /** Claude Code's `permissionMode`: the mode of the role's permission policy (its rules stay the parent's). */
  permissionMode: z.enum(['default', 'acceptEdits', 'bypassPermissions', 'plan', 'dontAsk']).optional(),
  /** Permission rules the `tools` entries carried (`Bash(git:*)`): added to the allow rules. */
  allowRules: z.array(z.string().min(1)).optional(),
  /** Permission rules of `disallowedTools` entries (`Bash(rm:*)`): added to the deny rules. */
  denyRules: z.array(z.string().min(1)).optional(),
  /**
   * Hooks of this role only, in settings.json's shape (already validated:
   * `HookSettings`). For a subagent they run beside the parent's, its `Stop`
   * hooks as `SubagentStop` (Claude Code's rule); for a teammate made from
   * the file they join the team's hooks.
   */
  hooks: z.record(z.string(), z.unknown()).optional(),
  /** Skills (`.claude/skills/<name>/SKILL.md`) whose text is preloaded into the role's prompt. */
  skills: z.array(z.string().min(1)).optional(),
});
export type SubagentRoleInput = z.input<typeof SubagentRoleSchema>;

/**
 * A role, with where it was defined (a file path, `options`, `built-in`) and
 * what of its file was not used as written (unknown keys or tool names,
 * Claude Code keys teamd ignores), one line each naming the file and field.
 */
export type SubagentRole = z.infer<typeof SubagentRoleSchema> & { source: string; warnings?: string[] };

/** `AgentRuntimeOptions.subagents`: present (even `{}`) to give a top-level agent the `task` tool. */
export interface SubagentOptions {
  /** Roles from the embedding (teamd's config); they win over role files of the same name. */
  roles?: SubagentRoleInput[];
  /** Read `.claude/agents/**.md` in the project root (and the user's agents). Default true. */
  roleFiles?: boolean;
  /** The user's agents folder; default `~/.claude/agents`; null for none. */
  userRolesDir?: string | null;
  /** Turn limit of a subagent whose role sets none. Default 30. */
  maxTurns?: number;
  /** The client for a role's `model`; default: the parent's model for `inherit`, else `createModelClient`. */
  modelFor?: (model: string) => Promise<ModelClient>;
}

export const DEFAULT_SUBAGENT_MAX_TURNS = 30;
export const TASK_TOOL_NAME = 'task';
export const GENERAL_PURPOSE = 'general-purpose';
