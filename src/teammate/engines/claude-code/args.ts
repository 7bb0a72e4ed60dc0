/**
 * The command line of one Claude Code run for a teammate. A pure function of
 * the teammate's settings, so what teamd asks of the CLI can be read (and
 * tested) in one place:
 * - stream-json both ways, `--verbose` (required for stream-json output) and
 *   `--replay-user-messages` (stdin mail echoed back when taken in);
 * - `--model`, `--max-turns`, `--max-budget-usd` (what is left of the budgets);
 * - permissions: the mode, allow/deny rules as `--allowedTools` /
 *   `--disallowedTools`, ask rules through `--settings`; teamd's MCP tools are
 *   always allowed, and asks go to `mcp__teamd__permission_prompt`;
 * - `planMode`: `--permission-mode plan` (the plan approval is the CLI's ExitPlanMode ask, in teamd's approvals);
 * - `--tools` when the teammate's tools are restricted (teamd names mapped to Claude Code's);
 * - `--add-dir` per additional directory (the teammate's, the team's and the
 *   repository settings' `permissions.additionalDirectories`, absolute);
 * - a role `agent:<name>` becomes `--agent <name>` (the repository's agent file);
 *   any other role is appended to the system prompt with the team's rules.
 */
import type { PermissionPolicyConfig } from '../../../config/schema.js';
import { claudeCodeToolName, teamdToolName } from '../../../tools/claude-names.js';

export const MCP_SERVER = 'teamd';
export const PERMISSION_TOOL = `mcp__${MCP_SERVER}__permission_prompt`;

export interface ClaudeRunSettings {
  name: string;
  model: string;
  maxTurns: number;
  budgetUsd?: number;
  /** teamd tool names; all tools when absent. */
  tools?: string[];
  permissions: PermissionPolicyConfig;
  role: string;
  /** The `--mcp-config` JSON that starts `teamd mcp --as <name>`; none when teamd's MCP server is not available. */
  mcpConfig: string | null;
  /** Answering mail in the shared tree: no editing. */
  readOnly: boolean;
  /** The teammate's `planMode`: the CLI's own plan mode (its ExitPlanMode ask is the plan approval). */
  planMode?: boolean;
  /** Absolute directories the CLI's tools may reach besides the cwd (`--add-dir`). */
  addDirs?: string[];
  extra: string[];
}

const FIXED = ['-p', '--input-format', 'stream-json', '--output-format', 'stream-json', '--verbose', '--replay-user-messages'];
const EDITING = ['Edit', 'Write', 'MultiEdit', 'NotebookEdit'];

/** Claude Code's permission mode for teamd's `defaultMode` (the same names). */
const modeOf = (p: PermissionPolicyConfig, readOnly: boolean, planMode: boolean): string =>
  planMode ? 'plan' : readOnly && p.defaultMode === 'bypassPermissions' ? 'default' : p.defaultMode;

function rules(flag: string, list: string[]): string[] {
  return list.length ? [flag, ...list] : [];
}

function systemPromptOf(s: ClaudeRunSettings): string[] {
  const agent = /^agent:(.+)$/.exec(s.role)?.[1];
  const team = [
    `You are ${s.name}, a teammate on a team run by teamd.`,
    s.mcpConfig ? `Your team tools are the ${MCP_SERVER} MCP tools (mcp__${MCP_SERVER}__*): messages, tasks, the board.` : '',
    s.readOnly
      ? 'You are answering mail in the shared tree: change no files.'
      : 'You work in a git worktree of your task: edit files there; do not commit, push or merge (teamd commits and merges your work). When the task is done, end with a short summary of what you did.',
  ].filter(Boolean);
  if (!agent) team.push(s.role);
  return [...(agent ? ['--agent', agent] : []), '--append-system-prompt', team.join('\n')];
}

function permissionArgs(s: ClaudeRunSettings): string[] {
  const p = s.permissions;
  const allow = s.mcpConfig ? [`mcp__${MCP_SERVER}`, ...p.allow] : p.allow;
  const deny = s.readOnly ? [...p.deny, ...EDITING] : p.deny;
  const settings = p.ask.length ? ['--settings', JSON.stringify({ permissions: { ask: p.ask } })] : [];
  const prompt = s.mcpConfig ? ['--permission-prompt-tool', PERMISSION_TOOL] : [];
  return ['--permission-mode', modeOf(p, s.readOnly, s.planMode === true), ...prompt, ...settings, ...rules('--allowedTools', allow), ...rules('--disallowedTools', deny)];
}

/** The built-in tools among teamd names, in Claude Code's names (team tools come through MCP). */
const builtins = (names: string[]): string[] =>
  names.filter((n) => teamdToolName(claudeCodeToolName(n)) === n).map(claudeCodeToolName);

export function claudeArgs(s: ClaudeRunSettings): string[] {
  const budget = s.budgetUsd === undefined ? [] : ['--max-budget-usd', String(s.budgetUsd)];
  const tools = s.tools ? ['--tools', builtins(s.tools).join(',')] : [];
  const mcp = s.mcpConfig ? ['--mcp-config', s.mcpConfig] : [];
  return [
    ...FIXED,
    '--model', s.model,
    '--max-turns', String(s.maxTurns),
    ...budget,
    ...tools,
    ...mcp,
    ...(s.addDirs ?? []).flatMap((d) => ['--add-dir', d]),
    ...systemPromptOf(s),
    ...permissionArgs(s),
    ...s.extra,
  ];
}
