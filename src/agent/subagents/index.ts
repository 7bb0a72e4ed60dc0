/** Subagents: the `task` tool, its roles, and one subagent run. */
export type { SubagentHost, SubagentRuntime } from './host.js';
export { defaultModelFor, MODEL_ALIASES } from './model-choice.js';
export { parseRoleFile } from './role-file.js';
export {
  GENERAL_PURPOSE_ROLE,
  loadRoles,
  projectAgentsDir,
  userAgentsDir,
  type LoadedRoles,
  type RoleSources,
} from './roles.js';
export { runSubagent, type SubagentCall, type SubagentOutcome } from './run-subagent.js';
export { createTaskTool } from './task-tool.js';
export {
  DEFAULT_SUBAGENT_MAX_TURNS,
  SubagentRoleSchema,
  TASK_TOOL_NAME,
  type SubagentOptions,
  type SubagentRole,
  type SubagentRoleInput,
} from './types.js';
