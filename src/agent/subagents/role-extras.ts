/**
 * What an agent file adds to a subagent's run besides tools and model: its
 * skills' text after its prompt, and its own hooks beside the parent's (its
 * `Stop` hooks as `SubagentStop`). Skills that are missing come back as notes.
 */
import { createHookRunner } from '../../hooks/runner.js';
import { asSubagentHooks, stackHookRunners } from '../../hooks/stack.js';
import type { HookRunner } from '../../hooks/types.js';
import type { ModelClient } from '../../model/types.js';
import type { AgentRuntimeOptions } from '../options.js';
import { defaultModelFor } from './model-choice.js';
import { loadSkills, withSkills } from './skills.js';
import type { SubagentRole } from './types.js';

export interface RoleExtras {
  prompt: string;
  hooks: HookRunner | undefined;
  notes: string[];
}

function roleHooks(parent: AgentRuntimeOptions, role: SubagentRole, model: ModelClient): HookRunner | undefined {
  if (role.hooks === undefined) return parent.hooks;
  const own = createHookRunner(asSubagentHooks(role.hooks), {
    cwd: parent.cwd,
    permissionMode: role.permissionMode ?? parent.permissionPolicy?.defaultMode ?? 'default',
    model: (name) => defaultModelFor(model, name),
  });
  return stackHookRunners(parent.hooks, own);
}

export async function roleExtras(
  parent: AgentRuntimeOptions,
  role: SubagentRole,
  model: ModelClient,
  userSkillsDir?: string | null,
): Promise<RoleExtras> {
  const skills = await loadSkills(role.skills, parent.cwd, role.source, userSkillsDir);
  return {
    prompt: withSkills(role.prompt, skills),
    hooks: roleHooks(parent, role, model),
    notes: skills.warnings.map((w) => `[${w}]`),
  };
}
