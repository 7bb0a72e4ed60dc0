import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { AgentRuntime } from '../agent/runtime.js';
import type { AgentEvent } from '../agent/types.js';
import type { PermissionPolicy } from '../agent/permissions/types.js';
import { teammateAddedDirs } from './added-dirs.js';
import { taskCreatedCheck, teammateHookRunner } from './hooks.js';
import { cronTools } from '../tools/cron/index.js';
import { builtinTools, toolDefinition } from '../tools/index.js';
import type { AnyTool, ToolOutput } from '../tools/types.js';
import { teammateCanUseTool } from './approvals.js';
import { respondShutdown } from './control.js';
import type { TeammateHost } from './host.js';
import { askAndWait } from './approvals.js';
import { teammateSystemPrompt } from './prompts.js';
import { workerCronService } from './tools/cron-service.js';
import { TEAM_TOOL_NAMES, TEAM_TOOL_RULES, teamTools } from './tools/index.js';
import { rosterOf } from '../config/load.js';
import { thinkingOptionsOf } from '../model/thinking.js';

export const transcriptsDir = (repoRoot: string, agent: string): string =>
  join(repoRoot, '.team', 'state', 'transcripts', agent);

const EDITING = new Set(['write', 'edit', 'bash']);

/** Plan mode: editing tools answer with a refusal until the plan is approved. */
function gatePlan(host: TeammateHost, tool: AnyTool): AnyTool {
  if (!EDITING.has(tool.name)) return tool;
  return {
    ...tool,
    run: async (input, ctx): Promise<ToolOutput> => {
      if (!host.planApproved && !tool.isReadOnly(input)) {
        return { content: `Refused: ${tool.name} needs an approved plan. Send your plan first (team do plan, text your plan).`, isError: true };
      }
      return tool.run(input, ctx);
    },
  };
}

/**
 * Converts the tools' input schemas to JSON Schema once, at boot: the first
 * conversion of each costs milliseconds, which the first task would wait for.
 */
export function warmToolDefinitions(planMode: boolean): void {
  for (const tool of [...builtinTools(), ...teamTools(planMode ? 'plan' : 'teammate'), ...cronTools]) toolDefinition(tool);
}

/**
 * A teammate's tools, the same for a task and for a read-only mail session:
 * the tool list leads every request's cached prefix, so a mail session that
 * is offered the same list reads it from the cache (≈ 1.6k tokens) instead
 * of writing a prefix of its own. Its policy still denies Edit and Write.
 */
export function teammateTools(cfg: { planMode: boolean; tools?: string[] | undefined }): AnyTool[] {
  const tools = [...builtinTools(), ...teamTools(cfg.planMode ? 'plan' : 'teammate'), ...cronTools];
  return cfg.tools ? tools.filter((t) => cfg.tools!.includes(t.name) || TEAM_TOOL_NAMES.includes(t.name)) : tools;
}

function toolsFor(host: TeammateHost): AnyTool[] {
  const cfg = host.deps.data.teammate;
  const tools = teammateTools(cfg);
  return cfg.planMode ? tools.map((t) => gatePlan(host, t)) : tools;
}

/** Answering mail runs in the shared tree: nothing there may change (Edit and Write denied, no bypass). */
export function policyFor(host: Pick<TeammateHost, 'deps'>, readOnly: boolean): PermissionPolicy {
  const configured = host.deps.data.teammate.permissions ?? host.deps.data.team.permissions;
  const base = { ...configured, allow: [...TEAM_TOOL_RULES, ...configured.allow] };
  return readOnly ? { ...base, defaultMode: base.defaultMode === 'bypassPermissions' ? 'default' : base.defaultMode, deny: [...base.deny, 'Edit', 'Write'] } : base;
}

export interface RuntimeSpec {
  cwd: string;
  worktree: string | null;
  /** Answering mail in the shared tree: Edit and Write are denied (the same tools are offered, for the cache). */
  readOnly: boolean;
  /** A turn woken by a background hook (hook-wake.ts): its own hooks' results never wake again. */
  hookWoken?: boolean;
  parentId: string;
  onEvent: (e: AgentEvent) => void;
}

/** The runtime's events, also handed to the lead when it asked for them (the library's team API); never the token deltas. */
function forwarding(host: TeammateHost, onEvent: (e: AgentEvent) => void): (e: AgentEvent) => void {
  const forward = host.deps.onAgentEvent;
  if (!forward) return onEvent;
  return (e) => {
    onEvent(e);
    if (e.type !== 'stream_event') forward(e);
  };
}

export function createTeammateRuntime(host: TeammateHost, spec: RuntimeSpec): AgentRuntime {
  const { data, tasks, mailbox } = host.deps;
  const cfg = data.teammate;
  const roster = rosterOf(data.team);
  const approvalDeps = {
    repoRoot: data.repoRoot,
    agent: host.name,
    mailbox,
    waiters: host.waiters,
    timeoutMs: data.team.approvalTimeoutMs,
    currentTask: () => host.status.current.task,
    log: host.deps.log,
    onWaiting: (waiting: boolean) => void host.setState(waiting ? 'waiting' : 'working', host.status.current.task),
    save: host.deps.viaLead?.saveRequest,
  };
  const policy = policyFor(host, spec.readOnly);
  const added = teammateAddedDirs(data);
  for (const warning of added.warnings) host.deps.log({ type: 'notice', agent: host.name, message: warning });
  let runtime: AgentRuntime | null = null;
  const hooks = teammateHookRunner(host, spec.cwd, policy.defaultMode, {
    live: () => runtime?.isRunning === true,
    woken: spec.hookWoken === true,
  });
  const beforeCreate = taskCreatedCheck(host, hooks, () => runtime);
  runtime = new AgentRuntime({
    model: host.deps.model,
    cwd: spec.cwd,
    ...(added.dirs.length === 0 ? {} : { additionalDirectories: added.dirs }),
    tools: toolsFor(host),
    systemPrompt: teammateSystemPrompt({ name: host.name, role: cfg.role, roster, worktree: spec.worktree, planMode: cfg.planMode }),
    agentName: host.name,
    maxTurns: cfg.maxTurns,
    // What is left of the teammate's budget bounds this run (the lead retires it at the limit).
    maxBudgetUsd: runBudget(cfg.maxBudgetUsd === undefined ? undefined : Math.max(0.000001, cfg.maxBudgetUsd - host.status.current.costUsd), data.team.taskBudgetUsd),
    maxTokens: cfg.maxTokens ?? data.team.maxTokens,
    thinking: thinkingOptionsOf(cfg, data.team),
    permissionPolicy: policy,
    canUseTool: teammateCanUseTool(approvalDeps),
    hooks,
    parentId: spec.parentId,
    depth: 0,
    transcriptDir: transcriptsDir(data.repoRoot, host.name),
    ...(host.deps.viaLead === undefined ? {} : { openTranscript: host.deps.viaLead.openTranscript }),
    prices: data.team.prices,
    onEvent: forwarding(host, spec.onEvent),
    // The role opens the system prompt: not repeated in the session context.
    subagents: {},
    memory: host.deps.viaLead === undefined ? {} : { write: host.deps.viaLead.writeMemory },
    mcp: existsSync(join(data.repoRoot, '.mcp.json')),
    services: {
      team: { tasks, mailbox, roster: () => roster, self: host.name, beforeCreate, onSent: (m: { id: string; to: string; type: string }) => host.deps.log({ type: 'message_sent', id: m.id, from: host.name, to: m.to, messageType: m.type }) },
      cron: host.deps.viaLead?.cron ?? workerCronService(data.repoRoot, data.team.teammates.map((t) => t.name)),
      protocol: {
        requestPlanApproval: async (plan: string, signal: AbortSignal) => {
          const verdict = await askAndWait(approvalDeps, { kind: 'plan', input: plan, summary: plan.slice(0, 200) }, signal);
          if (typeof verdict === 'string') return { approved: false, reason: verdict === 'timeout' ? 'no answer in time' : 'interrupted' };
          host.planApproved = verdict.approve;
          if (!verdict.approve) return planRejected(host, verdict.reason);
          return { approved: verdict.approve, reason: verdict.reason };
        },
        respondShutdown: async (requestId: string, approve: boolean, reason: string) => {
          const to = host.shutdownRequests.get(requestId);
          if (!to) return `No pending shutdown request ${requestId}.`;
          return respondShutdown(host, requestId, to, approve, reason);
        },
      },
    },
  });
  return runtime;
}

/** The tighter of what is left of the teammate's budget and the team's per-task budget. */
export const runBudget = (left: number | undefined, perTask: number | undefined): number | undefined =>
  left === undefined ? perTask : perTask === undefined ? left : Math.min(left, perTask);

/**
 * A rejected plan counts; after the team's `maxAttempts` rejections on one
 * task the task fails, and the model is told to stop.
 */
async function planRejected(host: TeammateHost, reason: string | undefined): Promise<{ approved: false; reason: string }> {
  host.planRejections += 1;
  const max = host.deps.data.team.maxAttempts;
  const task = host.status.current.task;
  if (host.planRejections < max || !task) return { approved: false, reason: reason ?? '' };
  const error = `plan rejected ${host.planRejections} times${reason ? ` (last: ${reason})` : ''}`;
  await host.deps.tasks.fail(task, host.name, error);
  host.deps.log({ type: 'task_failed', task, agent: host.name, error });
  return { approved: false, reason: `${reason ?? ''} This was rejection ${host.planRejections} of ${max}: the task has failed. Stop now.` };
}
