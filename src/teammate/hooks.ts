/**
 * A teammate's hooks: the runner (cwd the task's worktree, CLAUDE_PROJECT_DIR
 * the repository, failures reported to the event log and `teamd status`),
 * and the team events Claude Code defines — TaskCreated, TaskCompleted,
 * TeammateIdle, and the idle Notification — with the session of the
 * teammate's runtime.
 */
import { basename } from 'node:path';
import type { AgentRuntime } from '../agent/runtime.js';
import { recordHookFailure } from '../hooks/failure-log.js';
import { taskFields } from '../hooks/team-events.js';
import { defaultModelFor } from '../agent/subagents/model-choice.js';
import { createHookRunner, loadHookSettings, type LoadedHooks } from '../hooks/index.js';
import { mergeHookSettings, parseHookSettings } from '../hooks/parse.js';
import { taskCreatedHook } from '../hooks/team-events.js';
import type { HookRunner } from '../hooks/types.js';
import type { Task } from '../store/types.js';
import { rewakeRoute } from './hook-wake.js';
import type { TeammateHost } from './host.js';
import type { WorkerData } from './types.js';

/** The team's hooks, then the teammate's own (its config's `hooks`, or its agent file's). */
export async function teammateHooks(data: WorkerData): Promise<LoadedHooks> {
  const team = await loadHookSettings(data.repoRoot, data.team.hooks, {
    pluginDirs: data.team.plugins ?? [],
  });
  if (data.teammate.hooks === undefined) return team;
  const own = parseHookSettings(data.teammate.hooks, `teammate ${data.teammate.name}: hooks`);
  return { ...team, ...mergeHookSettings([team, own]) };
}

/** Whether the runner's session is mid-run, and whether it is a hook-woken turn (see hook-wake.ts). */
export interface RewakeScope {
  live: () => boolean;
  woken: boolean;
}

export function teammateHookRunner(
  host: TeammateHost,
  cwd: string,
  permissionMode: string,
  scope: RewakeScope = { live: () => false, woken: false },
): HookRunner {
  const repoRoot = host.deps.data.repoRoot;
  return createHookRunner(host.deps.hooks, {
    onAsyncRewake: rewakeRoute(host, scope.live, scope.woken),
    cwd,
    projectDir: repoRoot,
    permissionMode,
    // a hook's `model` as a role's: the teammate's own when none, or when it runs a script
    model: (name) => defaultModelFor(host.deps.model, name),
    ...(host.deps.allowedHttpHookUrls ? { allowedHttpHookUrls: host.deps.allowedHttpHookUrls } : {}),
    onFailure: (failure) => {
      host.deps.log({ type: 'notice', agent: host.name, message: `hook: ${failure.message}` });
      recordHookFailure(repoRoot, host.name, failure);
    },
  });
}

/** Fields of every team event: the teammate, the team (the repository's name), and the runtime's session. */
function teamBase(host: TeammateHost, runtime: AgentRuntime | null): Record<string, unknown> {
  const session = runtime?.hookSession;
  return {
    ...(session === undefined ? {} : session),
    teammate_name: host.name,
    team_name: basename(host.deps.data.repoRoot),
  };
}

export interface TeamHookVerdict {
  /** Exit 2 / a block: the teammate is told this and keeps working. */
  feedback: string | null;
  /** `"continue": false`: the teammate stops (the task is not completed). */
  stop: string | null;
}

/** TaskCompleted, then TeammateIdle (and an `idle_prompt` Notification when both let it stop). */
export async function completionHooks(
  host: TeammateHost,
  runner: HookRunner,
  runtime: AgentRuntime | null,
  task: Task,
): Promise<TeamHookVerdict> {
  const base = teamBase(host, runtime);
  const completed = await runner.run('TaskCompleted', { ...base, ...taskFields(task) });
  if (!completed.continue)
    return { feedback: null, stop: completed.stopReason ?? 'a TaskCompleted hook stopped the teammate' };
  if (completed.blocked)
    return {
      feedback: `The completion of task ${task.id} was refused: ${completed.reason ?? 'no reason given'}. Fix it, then summarise again.`,
      stop: null,
    };
  const idle = await runner.run('TeammateIdle', base);
  if (!idle.continue)
    return { feedback: null, stop: idle.stopReason ?? 'a TeammateIdle hook stopped the teammate' };
  if (idle.blocked) return { feedback: `Before you stop: ${idle.reason ?? 'keep working'}`, stop: null };
  if (runner.has('Notification')) {
    const note = {
      ...base,
      message: `${host.name} finished ${task.id} and is waiting for work`,
      notification_type: 'idle_prompt',
    };
    void runner.run('Notification', note, { matchValue: 'idle_prompt' });
  }
  return { feedback: null, stop: null };
}

/** TaskCreated before a teammate's `task_write` creates a task: an error text refuses it. */
export function taskCreatedCheck(host: TeammateHost, runner: HookRunner, runtime: () => AgentRuntime | null) {
  return taskCreatedHook(runner, () => teamBase(host, runtime()));
}
