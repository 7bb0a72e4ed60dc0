/**
 * A teammate whose `role` is `agent:<name>` takes that `.claude/agents/` file
 * as Claude Code would run it: the body is its role prompt; `tools` (mapped
 * to teamd names), `disallowedTools`, `model` and `maxTurns` apply unless the
 * teammate sets its own (a `maxTurns` other than the default); `permissionMode`
 * becomes the mode of its permission policy (rules: the team's, plus those its
 * tool lists carried), and `plan` also turns on plan mode; its `hooks` join
 * the teammate's hooks, its `skills` follow its prompt.
 */
import { MODEL_ALIASES, type SubagentRole } from '../agent/subagents/index.js';
import { withSkills, type LoadedSkills } from '../agent/subagents/skills.js';
import { DEFAULT_MAX_TURNS, type PermissionPolicyConfig, type TeammateConfig } from '../config/schema.js';
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

/** A teammate still at the schema's default takes the agent file's `maxTurns`. */
function maxTurnsOf(role: SubagentRole, t: TeammateConfig): number {
  return role.maxTurns !== undefined && t.maxTurns === DEFAULT_MAX_TURNS ? role.maxTurns : t.maxTurns;
}

/** The file's hooks join the teammate's own (a config's `hooks` first). */
function hooksOf(role: SubagentRole, t: TeammateConfig): Record<string, unknown> | undefined {
  if (role.hooks === undefined) return t.hooks;
  if (t.hooks === undefined) return role.hooks;
  const out: Record<string, unknown> = { ...t.hooks };
  for (const [event, matchers] of Object.entries(role.hooks))
    out[event] = [...(Array.isArray(out[event]) ? (out[event] as unknown[]) : []), ...(matchers as unknown[])];
  return out;
}

export function applyAgentRole(
  t: TeammateConfig,
  role: SubagentRole,
  team: PermissionPolicyConfig,
  skills: LoadedSkills = { text: '', warnings: [] },
): TeammateConfig {
  const model =
    role.model && role.model !== 'inherit' ? (MODEL_ALIASES[role.model] ?? role.model) : undefined;
  const tools = toolsOf(role, t.tools);
  const permissions = permissionsOf(role, t, team);
  const hooks = hooksOf(role, t);
  return {
    ...t,
    role: withSkills(role.prompt, skills),
    maxTurns: maxTurnsOf(role, t),
    ...(hooks ? { hooks } : {}),
    ...(tools ? { tools } : {}),
    ...((t.model ?? model) ? { model: t.model ?? model } : {}),
    ...(permissions ? { permissions } : {}),
    ...(role.permissionMode === 'plan' ? { planMode: true } : {}),
  };
}
