/**
 * The permission gate: decides allow / deny / ask for one tool call from the
 * policy, in this order (the first that decides wins):
 * 1. deny rules;
 * 2. file tools outside the root: deny;
 * 3. dangerous bash commands: catastrophic ones deny, the others ask (in every mode);
 * 4. plan mode: deny every non-read-only call;
 * 5. ask rules; 6. allow rules;
 * 7. the mode's default (read-only calls always run).
 * In `dontAsk` mode every ask becomes a deny.
 */
import { classifyCommand, type CommandClass } from '../../tools/bash-classify.js';
import type { AnyTool } from '../../tools/types.js';
import { parseRule, ruleProblems } from './rules.js';
import { allowingRule, ruleHits } from './rule-match.js';
import { viewCall, type ToolCallView } from './tool-call.js';
import type {
  PermissionDecision,
  PermissionGate,
  PermissionMode,
  PermissionPolicy,
  PermissionRule,
} from './types.js';

interface Lists {
  deny: PermissionRule[];
  ask: PermissionRule[];
  allow: PermissionRule[];
}

interface Call {
  tool: AnyTool;
  view: ToolCallView;
  shell: CommandClass | null;
  readOnly: boolean;
  where: { root: string; cwd: string; extraRoots?: readonly string[] };
}

/** Every malformed rule in the policy, naming its list and index; empty when the policy is usable. */
export function policyProblems(policy: PermissionPolicy): string[] {
  return [
    ...ruleProblems('deny', policy.deny),
    ...ruleProblems('ask', policy.ask),
    ...ruleProblems('allow', policy.allow),
  ];
}

/** Throws on a malformed rule (a configuration error to report at startup; check with `policyProblems` first). */
export function createPermissionGate(policy: PermissionPolicy): PermissionGate {
  const problems = policyProblems(policy);
  if (problems.length > 0) throw new Error(`invalid permission policy:\n${problems.join('\n')}`);
  const compile = (rules: string[]): PermissionRule[] =>
    rules.map((r) => (parseRule(r) as { ok: true; value: PermissionRule }).value);
  const lists: Lists = { deny: compile(policy.deny), ask: compile(policy.ask), allow: compile(policy.allow) };
  return {
    check: (tool, input, where) =>
      withMode(policy.defaultMode, decide(policy.defaultMode, lists, describe(tool, input, where))),
  };
}

function describe(tool: AnyTool, input: unknown, where: { root: string; cwd: string; extraRoots?: readonly string[] }): Call {
  const view = viewCall(tool, input, where);
  const shell = view.command === undefined ? null : classifyCommand(view.command, where);
  return { tool, view, shell, readOnly: shell?.readOnly ?? safeIsReadOnly(tool, input), where };
}

function decide(mode: PermissionMode, lists: Lists, call: Call): PermissionDecision {
  return (
    byDenyRule(lists.deny, call) ??
    outsideRoot(call) ??
    dangerous(call) ??
    planMode(mode, call) ??
    byAskRule(lists.ask, call) ??
    byAllowRule(lists.allow, call) ??
    byMode(mode, call)
  );
}

function byDenyRule(rules: PermissionRule[], call: Call): PermissionDecision | null {
  const rule = rules.find((r) => ruleHits(r, call.view));
  return rule === undefined
    ? null
    : {
        behavior: 'deny',
        message: `Permission denied: ${what(call)} is forbidden by the rule ${rule.source}.`,
        reason: `deny rule ${rule.source}`,
      };
}

function outsideRoot(call: Call): PermissionDecision | null {
  const target = call.view.target;
  if (target === undefined || target.inside) return null;
  return {
    behavior: 'deny',
    message: `Permission denied: ${target.abs} is outside the working directory ${call.where.root}${addedDirs(call.where.extraRoots)}.`,
    reason: 'outside the working directory',
  };
}

const addedDirs = (extra: readonly string[] | undefined): string =>
  extra === undefined || extra.length === 0 ? '' : ` and the added directories ${extra.join(', ')}`;

function dangerous(call: Call): PermissionDecision | null {
  const shell = call.shell;
  if (shell?.dangerous == null) return null;
  if (shell.catastrophic)
    return {
      behavior: 'deny',
      message: `Permission denied: this command ${shell.dangerous}; it is never run.`,
      reason: `catastrophic command: ${shell.dangerous}`,
    };
  return {
    behavior: 'ask',
    message: `A dangerous command: it ${shell.dangerous}.\n  ${call.view.command}`,
    reason: `dangerous command: ${shell.dangerous}`,
  };
}

function planMode(mode: PermissionMode, call: Call): PermissionDecision | null {
  if (mode !== 'plan' || call.readOnly) return null;
  return {
    behavior: 'deny',
    message: `Plan mode: ${what(call)} would change something, and nothing may change until your plan is approved. Explore with read-only tools, then present the plan for approval.`,
    reason: 'plan mode',
  };
}

function byAskRule(rules: PermissionRule[], call: Call): PermissionDecision | null {
  const rule = rules.find((r) => ruleHits(r, call.view));
  return rule === undefined
    ? null
    : {
        behavior: 'ask',
        message: `${capitalised(what(call))} needs approval (rule ${rule.source}).`,
        reason: `ask rule ${rule.source}`,
      };
}

function byAllowRule(rules: PermissionRule[], call: Call): PermissionDecision | null {
  const rule = allowingRule(rules, call.view, call.where);
  return rule === null ? null : { behavior: 'allow', reason: `allow rule ${rule.source}` };
}

function byMode(mode: PermissionMode, call: Call): PermissionDecision {
  if (call.readOnly) return { behavior: 'allow', reason: 'read-only' };
  if (mode === 'bypassPermissions') return { behavior: 'allow', reason: 'mode bypassPermissions' };
  if (mode === 'acceptEdits' && call.view.kind === 'edit')
    return { behavior: 'allow', reason: 'mode acceptEdits: file edit inside the working directory' };
  return { behavior: 'ask', message: `${capitalised(what(call))} needs approval.`, reason: `mode ${mode}` };
}

/** `dontAsk`: nobody is there to answer, so whatever would ask is denied. */
function withMode(mode: PermissionMode, decision: PermissionDecision): PermissionDecision {
  if (mode !== 'dontAsk' || decision.behavior !== 'ask') return decision;
  return {
    behavior: 'deny',
    message: `Permission denied (mode dontAsk, nobody to ask): ${decision.message}`,
    reason: `${decision.reason}; mode dontAsk`,
  };
}

function what(call: Call): string {
  const { view } = call;
  if (view.command !== undefined) return `running \`${view.command}\``;
  if (view.kind === 'edit' && view.target !== undefined)
    return `changing ${view.target.rel ?? view.target.abs}`;
  return `the ${call.tool.name} tool`;
}

function capitalised(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function safeIsReadOnly(tool: AnyTool, input: unknown): boolean {
  try {
    return tool.isReadOnly(input);
  } catch {
    return false; // unvalidated input: assume it may write
  }
}
