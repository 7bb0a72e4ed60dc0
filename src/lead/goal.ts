/**
 * `teamd run "<goal>"`: the lead's agent turns a goal into tasks with
 * dependencies, the teammates execute them, and the run ends when every task
 * is completed, failed or cancelled (and merged, with worktrees on).
 */
import type { LoggedEvent } from '../observe/types.js';
import type { Task } from '../store/types.js';
import { Lead, type LeadOptions } from './lead.js';
import { summarise, type RunSummary } from './summary.js';

export type PlanVerdict = { approve: true } | { approve: false; reason: string };

export interface GoalOptions extends LeadOptions {
  goal: string;
  /** Show the plan to a person before any teammate starts. */
  reviewPlan?: (plan: Task[]) => Promise<PlanVerdict>;
  /** Give up after this long (default: no limit). */
  timeoutMs?: number;
  /**
   * Aborted (Ctrl-C): the team stops gracefully — every teammate ends its
   * current step, unfinished tasks go back to the board with a note — and the
   * run returns its summary marked `interrupted`.
   */
  signal?: AbortSignal;
}

const goalPrompt = (goal: string): string =>
  [
    `Goal: ${goal}`,
    '',
    'Break this goal into tasks on the board with task_create: small, concrete tasks, each with a clear',
    'subject and a description saying what "done" means. Use blockedBy so a task starts only after the work',
    'it builds on. Do not do the work yourself. When the plan is on the board, answer with one line.',
  ].join('\n');

const TERMINAL = new Set(['completed', 'failed', 'cancelled']);
export const allSettled = (tasks: Task[]): boolean => tasks.length > 0 && tasks.every((t) => TERMINAL.has(t.status));

export async function runGoal(opts: GoalOptions): Promise<{ ok: true; summary: RunSummary } | { ok: false; error: string }> {
  const started = Date.now();
  const patch = { ...opts.patch, lead: { agent: true, maxTurns: 24, ...opts.patch?.lead } };
  const lead = await Lead.start({ ...opts, patch, holdTeammates: true });
  if (!lead.ok) return lead;
  const l = lead.value;
  try {
    const before = new Set(l.tasks.list().map((t) => t.id));
    await l.mail.converse(goalPrompt(opts.goal));
    const plan = l.tasks.list().filter((t) => !before.has(t.id));
    if (opts.reviewPlan) {
      const verdict = await opts.reviewPlan(plan);
      if (!verdict.approve) {
        for (const t of plan) await l.tasks.cancel(t.id, 'user');
        return { ok: false, error: `plan rejected: ${verdict.reason}` };
      }
    }
    l.releaseTeammates();
    const interrupted = await Promise.race([untilSettled(l, opts.timeoutMs).then(() => false), abortedBy(opts.signal)]);
    if (interrupted) return { ok: true, summary: await interruptedSummary(l, started) };
    const summary = await summarise(l, started);
    l.log.append({ type: 'team_finished', completed: summary.tasks.completed, failed: summary.tasks.failed, cancelled: summary.tasks.cancelled });
    return { ok: true, summary };
  } finally {
    await l.stop('goal finished');
  }
}

function abortedBy(signal: AbortSignal | undefined): Promise<true> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve(true);
    signal?.addEventListener('abort', () => resolve(true), { once: true });
  });
}

/** Stops the team gracefully, then reads every task file again: the teammates' releases are the last word. */
async function interruptedSummary(lead: Lead, started: number): Promise<RunSummary> {
  await lead.stop('interrupted');
  await Promise.all(lead.tasks.list().map((t) => lead.tasks.refresh(t.id)));
  return { ...(await summarise(lead, started)), interrupted: true };
}

/** Waits, on events, until every task is settled and no merge is pending. */
function untilSettled(lead: Lead, timeoutMs?: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const settled = () => allSettled(lead.tasks.list());
    if (settled()) return resolve();
    const timer = timeoutMs ? setTimeout(() => finish(new Error(`goal not finished after ${timeoutMs} ms`)), timeoutMs) : null;
    const off = lead.onEvent((e: LoggedEvent) => {
      if (e.type.startsWith('task_') || e.type.startsWith('merge_')) {
        void Promise.all(lead.tasks.list().map((t) => lead.tasks.refresh(t.id))).then(() => settled() && finish());
      }
    });
    function finish(err?: Error): void {
      off();
      if (timer) clearTimeout(timer);
      if (err) reject(err);
      else resolve();
    }
  });
}
