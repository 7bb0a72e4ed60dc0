/**
 * The permission gate's contract. Before every tool call the runtime asks the
 * gate; the gate answers from a policy (Claude Code's rule syntax) and the
 * command classifier, never from a person. When it answers `ask`, the runtime
 * calls `CanUseTool` (a person, the lead, or a callback) and only then runs.
 *
 * Rule syntax (same as Claude Code's settings.json `permissions`):
 * - `Bash`                 every bash command
 * - `Bash(git status)`     exactly that command
 * - `Bash(npm test:*)`     commands starting with `npm test`
 * - `Edit(src/**)`         edit and write of files matching the gitignore-style glob, relative to root
 * - `Write(...)`, `Read(...)` likewise for write / read (`Read` rules also cover glob and grep paths)
 * - `Read`, `Glob`, `Grep`, `TodoWrite`, `WebFetch`, … a tool by its capitalised name
 * - `mcp__server__tool` one MCP tool; `mcp__server` every tool of that server
 *
 * Order of evaluation: deny rules, dangerous-command classification, ask rules,
 * allow rules, then the mode's default.
 */
import type { AnyTool } from '../../tools/types.js';

/**
 * What happens when no rule decides:
 * - `default`: read-only tools run; edits and non-read-only bash ask.
 * - `acceptEdits`: edits inside root run too; non-read-only bash asks.
 * - `bypassPermissions`: everything runs (catastrophic commands are still denied, dangerous ones still ask).
 * - `plan`: every non-read-only tool is denied until a plan is approved.
 * - `dontAsk`: like `default`, but every ask becomes a deny.
 */
export type PermissionMode = 'default' | 'acceptEdits' | 'bypassPermissions' | 'plan' | 'dontAsk';

export interface PermissionPolicy {
  defaultMode: PermissionMode;
  allow: string[];
  deny: string[];
  ask: string[];
}

/** `reason` says which rule or default decided (for logs and `permission_denials`). */
export type PermissionDecision =
  | { behavior: 'allow'; updatedInput?: unknown; reason: string }
  | { behavior: 'deny'; message: string; reason: string }
  | { behavior: 'ask'; message: string; reason: string };

/** Asked when the policy says ask; may wait for a person. */
export type CanUseTool = (
  toolName: string,
  input: unknown,
  opts: { signal: AbortSignal; toolUseId: string; message: string },
) => Promise<
  | { behavior: 'allow'; updatedInput?: unknown }
  /** `asIs`: the message is the whole tool result (Claude Code's `--permission-prompt-tool` deny), not wrapped in teamd's advice. */
  | { behavior: 'deny'; message: string; asIs?: boolean }
>;

export interface PermissionGate {
  /** Pure and synchronous: decides from the policy and the input alone. `input` is the validated tool input. */
  check(tool: AnyTool, input: unknown, ctx: { root: string; cwd: string; extraRoots?: readonly string[] }): PermissionDecision;
}

/** A parsed rule: `Bash(npm test:*)` → `{ tool: 'Bash', content: 'npm test:*' }`; `Read` → content null. */
export interface PermissionRule {
  /** Claude Code's tool name (`Bash`, `Edit`, `mcp__server__tool`, …), as written. */
  tool: string;
  /** The text between the parentheses, or null for a whole-tool rule. */
  content: string | null;
  /** The rule as written, for reasons and messages. */
  source: string;
}
