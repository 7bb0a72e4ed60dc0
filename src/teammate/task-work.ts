/**
 * One task, start to finish: its worktree, a fresh conversation, heartbeats
 * through the lease, mail entering at tool boundaries, then completion (handed
 * to the merge queue when worktrees are on), failure, or release on stop.
 */
import { join } from 'node:path';
import { consolidateMemories, extractMemories } from '../agent/memory/index.js';
import type { AgentRuntime } from '../agent/runtime.js';
import type { AgentEvent, ResultEvent } from '../agent/types.js';
import { startEngine, type EngineSession } from './engines/index.js';
import { handOffRewakes } from './hook-wake.js';
import { completionHooks, teammateHookRunner } from './hooks.js';
import type { Task } from '../store/types.js';
import type { ActiveRun, TeammateHost } from './host.js';
import { taskPrompt } from './prompts.js';
import { finishTask } from './task-finish.js';

const MAX_HOOK_ROUNDS = 3;
/** Tools whose `file_path` a run changed: teamd's names and Claude Code's. */
const EDITS = new Set(['edit', 'write', 'Edit', 'Write', 'MultiEdit']);

export function workOnTask(host: TeammateHost, task: Task): ActiveRun {
  let runtime: EngineSession | null = null;
  let interrupted = false;
  const done = (async () => {
    const cwd = await prepareWorktree(host, task);
    if (cwd === null) return;
    host.planApproved = false;
    host.planRejections = 0;
    const touched = new Set<string>();
    runtime = startEngine(host, {
      cwd: cwd.path,
      worktree: cwd.worktree,
      readOnly: false,
      parentId: task.id,
      onEvent: (e) => onRuntimeEvent(host, e, touched),
    });
    host.desk.attach((text) => runtime?.enqueue(text));
    // An interrupt with no run in progress would be lost: one that came before a run starts
    // means no run (the task goes back to the board, as a stopped run's does).
    const submit = (text: string): Promise<ResultEvent | null> =>
      interrupted || !runtime ? Promise.resolve(null) : runtime.submit(text);
    try {
      const deps = task.blockedBy.map((id) => host.deps.tasks.get(id)).filter((t): t is Task => !!t);
      let result = await submit(taskPrompt(task, deps));
      const runner = teammateHookRunner(host, cwd.path, policyMode(host));
      for (let round = 0; result?.subtype === 'success' && round < MAX_HOOK_ROUNDS; round++) {
        const verdict = await completionHooks(host, runner, runtime.runtime, task);
        if (verdict.stop !== null) result = { ...result, subtype: 'error_during_execution', is_error: true, error: verdict.stop };
        if (verdict.feedback === null) break;
        result = await submit(verdict.feedback);
      }
      await finishTask(host, task, result, { worktree: cwd.worktree, branch: cwd.branch, touched: [...touched] });
      if (runtime.runtime) await keepMemories(host, runtime.runtime);
    } finally {
      host.desk.detach();
      handOffRewakes(host, runtime);
      void runtime.close();
    }
  })();
  return {
    interrupt: () => {
      interrupted = true;
      runtime?.interrupt();
    },
    done,
  };
}

/**
 * End of a session: facts the agent marked to keep (`<remember>…</remember>`)
 * go into `.memory/`, and the folder is consolidated when it grows past its
 * threshold. Memory is a help, never a reason for a task to fail.
 */
async function keepMemories(host: TeammateHost, runtime: AgentRuntime): Promise<void> {
  const dir = join(host.deps.data.repoRoot, '.memory');
  try {
    const kept = await extractMemories(runtime, host.deps.model, { dir, agent: host.name });
    if (kept.written.length) await consolidateMemories(dir);
  } catch (err) {
    host.deps.log({ type: 'notice', agent: host.name, message: `memory: ${(err as Error).message}` });
  }
}

async function prepareWorktree(host: TeammateHost, task: Task): Promise<{ path: string; worktree: string | null; branch: string | null } | null> {
  const { data } = host.deps;
  if (data.team.worktrees.mode === 'off') return { path: data.repoRoot, worktree: null, branch: null };
  // A sandbox is started afresh for the grant (hosts/sandbox-channel.ts): the status it goes on from is the one written.
  if (data.writesViaLead) await host.status.heartbeat();
  const grant = await host.deps.requestWorktree(task.id);
  if (grant.ok && grant.path) return { path: grant.path, worktree: grant.path, branch: grant.branch ?? null };
  // Isolation is never skipped silently: no worktree, no work.
  const error = `could not create the worktree: ${grant.error ?? 'unknown error'}`;
  await host.deps.tasks.fail(task.id, host.name, error);
  host.deps.log({ type: 'task_failed', task: task.id, agent: host.name, error });
  return null;
}

function onRuntimeEvent(host: TeammateHost, e: AgentEvent, touched: Set<string>): void {
  if (e.type === 'user') {
    const c = e.message.content;
    const text = typeof c === 'string' ? c : c.map((b) => (b.type === 'text' ? b.text : '')).join('\n');
    void host.desk.confirm(text);
  } else if (e.type === 'assistant') {
    const c = e.message.content;
    if (typeof c !== 'string') {
      for (const b of c) {
        if (b.type === 'tool_use' && EDITS.has(b.name)) {
          const path = (b.input as { file_path?: unknown } | null)?.file_path;
          if (typeof path === 'string') touched.add(path);
        }
      }
    }
  } else if (e.type === 'result' && e.depth === 0) {
    // Only the task's own run: a subagent's spending is already inside it (depth 1 results pass by here too).
    const usage = Object.values(e.usage).reduce(
      (a, u) => ({
        input_tokens: a.input_tokens + u.input_tokens,
        output_tokens: a.output_tokens + u.output_tokens,
        cache_read_input_tokens: a.cache_read_input_tokens + u.cache_read_input_tokens,
        cache_creation_input_tokens: a.cache_creation_input_tokens + u.cache_creation_input_tokens,
      }),
      { input_tokens: 0, output_tokens: 0, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 },
    );
    host.status.addUsage(e.num_turns, usage, e.total_cost_usd);
  }
}

const policyMode = (host: TeammateHost): string =>
  (host.deps.data.teammate.permissions ?? host.deps.data.team.permissions).defaultMode;
