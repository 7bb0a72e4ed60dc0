export { createPermissionGate, policyProblems } from './gate.js';
export { parseRule } from './rules.js';
export type {
  CanUseTool,
  PermissionDecision,
  PermissionGate,
  PermissionMode,
  PermissionPolicy,
  PermissionRule,
} from './types.js';
