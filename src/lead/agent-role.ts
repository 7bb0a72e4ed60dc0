/**
 * A teammate whose `role` is `agent:<name>` takes that `.claude/agents/` file
 * as Claude Code would run it: the body is its role prompt; `tools` (mapped
 * to teamd names), `disallowedTools`, `model` and `maxTurns` apply unless the
 * teammate sets its own; `permissionMode` becomes the mode of its permission
 * policy (rules: the team's, plus those its tool lists carried), and `plan`
 * also turns on plan mode.
 */
import { MODEL_ALIASES, type SubagentRole } from '../agent/subagents/index.js';
import type { PermissionPolicyConfig, TeammateConfig } from '../config/schema.js';
import { builtinTools } from '../tools/index.js';

function toolsOf(role: SubagentRole, own: string[] | undefined): string[] | undefined {
  if (own) return own;
  if (!role.disallowedTools) return role.tools;
  const all = role.tools ?? builtinTools().map((t) => t.name);
  return all.filter((name) => !role.disallowedTools!.includes(name));
}

function permissionsOf(
  role: SubagentRole,
  t: TeammateConfig,
  team: PermissionPolicyConfig,
): PermissionPolicyConfig | undefined {
  if (t.permissions) return t.permissions;
  if (!role.permissionMode && !role.allowRules && !role.denyRules) return undefined;
  return {
    defaultMode: role.permissionMode ?? team.defaultMode,
    allow: [...team.allow, ...(role.allowRules ?? [])],
    deny: [...team.deny, ...(role.denyRules ?? [])],
    ask: team.ask,
  };
}

export function applyAgentRole(
  t: TeammateConfig,
  role: SubagentRole,
  team: PermissionPolicyConfig,
): TeammateConfig {
  const model =
    role.model && role.model !== 'inherit' ? (MODEL_ALIASES[role.model] ?? role.model) : undefined;
  const tools = toolsOf(role, t.tools);
  const permissions = permissionsOf(role, t, team);
  return {
    ...t,
    role: role.prompt,
    ...(tools ? { tools } : {}),
    ...((t.model ?? model) ? { model: t.model ?? model } : {}),
    ...(permissions ? { permissions } : {}),
    ...(role.permissionMode === 'plan' ? { planMode: true } : {}),
  };
}
