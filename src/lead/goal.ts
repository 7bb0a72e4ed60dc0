/**
 * `teamd run "<goal>"`: the lead's agent turns a goal into tasks with
 * dependencies, the teammates execute them, and the run ends when every task
 * is completed, failed or cancelled (and merged, with worktrees on).
 */
import type { LoggedEvent } from '../observe/types.js';
import type { Task } from '../store/types.js';
import { Lead, type LeadOptions } from './lead.js';
import { spentByAgent, summarise, type RunScope, type RunSummary } from './summary.js';

/** `interrupted`: Ctrl-C (or `teamd stop`) at the review; the planned tasks are cancelled as on a rejection. */
export type PlanVerdict = { approve: true } | { approve: false; reason: string; interrupted?: boolean };

/** A run that did not get to work: `exitCode` 130 when it was interrupted. */
export type GoalResult = { ok: true; summary: RunSummary } | { ok: false; error: string; exitCode?: number };

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
    'Break this goal into tasks on the board with task_write: small, concrete tasks, each with a clear',
    'subject and a description saying what "done" means. Use blockedBy so a task starts only after the work',
    'it builds on. Do not do the work yourself. When the plan is on the board, answer with one line.',
  ].join('\n');

const TERMINAL = new Set(['completed', 'failed', 'cancelled']);
export const allSettled = (tasks: Task[]): boolean =>
  tasks.length > 0 && tasks.every((t) => TERMINAL.has(t.status));

export async function runGoal(opts: GoalOptions): Promise<GoalResult> {
  const started = Date.now();
  const patch = { ...opts.patch, lead: { agent: true, maxTurns: 24, ...opts.patch?.lead } };
  const lead = await Lead.start({ ...opts, patch, holdTeammates: true });
  if (!lead.ok) return lead;
  const l = lead.value;
  try {
    const before = new Set(l.tasks.list().map((t) => t.id));
    const scope: RunScope = { isOurs: (id) => !before.has(id), spentBefore: await spentByAgent(l) };
    // Listening from the start: the planning call itself may pause the team (a refused key).
    const stopping = untilStopping(l);
    const planned = await Promise.race([
      l.mail.converse(goalPrompt(opts.goal)).then(() => true),
      abortedBy(opts.signal).then(() => false),
    ]);
    if (!planned) return { ok: true, summary: await interruptedSummary(l, started, scope) };
    const paused = l.pause.current;
    const plan = l.tasks.list().filter((t) => scope.isOurs(t.id));
    const needsPerson = paused !== null && paused.kind !== 'outage';
    // Nothing planned (the model answered without tasks, or its endpoint failed): nothing would ever settle.
    if (!needsPerson && plan.length === 0)
      return {
        ok: false,
        error: `the lead planned no tasks for the goal${paused ? ` (${paused.reason})` : ''}; see \`teamd logs lead\``,
      };
    const rejected = needsPerson ? null : await review(l, opts, plan);
    if (rejected) return rejected;
    l.releaseTeammates();
    const end = await Promise.race([
      untilSettled(l, scope, opts.timeoutMs),
      stopping,
      abortedBy(opts.signal).then(() => 'interrupted' as const),
    ]);
    if (end === 'interrupted') return { ok: true, summary: await interruptedSummary(l, started, scope) };
    const summary = {
      ...(await summarise(l, started, scope)),
      ...(end === 'settled' ? {} : { stoppedFor: end.reason }),
    };
    l.log.append({
      type: 'team_finished',
      completed: summary.tasks.completed,
      failed: summary.tasks.failed,
      cancelled: summary.tasks.cancelled,
    });
    return { ok: true, summary };
  } finally {
    await l.stop('goal finished');
  }
}

/** The person's verdict on the plan; a rejection (or Ctrl-C at the prompt) cancels the planned tasks. */
async function review(l: Lead, opts: GoalOptions, plan: Task[]): Promise<GoalResult | null> {
  if (!opts.reviewPlan) return null;
  const verdict = await opts.reviewPlan(plan);
  if (verdict.approve) return null;
  for (const t of plan) await l.tasks.cancel(t.id, 'user');
  if (verdict.interrupted)
    return {
      ok: false,
      error: `interrupted at the plan review; the ${plan.length} planned task(s) were cancelled`,
      exitCode: 130,
    };
  return { ok: false, error: `plan rejected: ${verdict.reason}` };
}

/**
 * A pause that needs a person (a refused key, a spent budget) ends the run:
 * nobody is there to resume it. An outage's pause resumes by itself.
 */
function untilStopping(lead: Lead): Promise<{ reason: string }> {
  return new Promise((resolve) => {
    const off = lead.onEvent((e) => {
      if (e.type !== 'team_paused' || e.kind === 'outage') return;
      off();
      resolve({ reason: e.reason });
    });
  });
}

function abortedBy(signal: AbortSignal | undefined): Promise<true> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve(true);
    signal?.addEventListener('abort', () => resolve(true), { once: true });
  });
}

/** Stops the team gracefully, then reads every task file again: the teammates' releases are the last word. */
async function interruptedSummary(lead: Lead, started: number, scope: RunScope): Promise<RunSummary> {
  await lead.stop('interrupted');
  await Promise.all(lead.tasks.list().map((t) => lead.tasks.refresh(t.id)));
  return { ...(await summarise(lead, started, scope)), interrupted: true };
}

/** Waits, on events, until every task of the run is settled and no merge is pending. */
function untilSettled(lead: Lead, scope: RunScope, timeoutMs?: number): Promise<'settled'> {
  return new Promise((resolve, reject) => {
    const settled = () => allSettled(lead.tasks.list().filter((t) => scope.isOurs(t.id)));
    if (settled()) return resolve('settled');
    const timer = timeoutMs
      ? setTimeout(() => finish(new Error(`goal not finished after ${timeoutMs} ms`)), timeoutMs)
      : null;
    const off = lead.onEvent((e: LoggedEvent) => {
      if (e.type.startsWith('task_') || e.type.startsWith('merge_')) {
        void Promise.all(lead.tasks.list().map((t) => lead.tasks.refresh(t.id))).then(
          () => settled() && finish(),
        );
      }
    });
    function finish(err?: Error): void {
      off();
      if (timer) clearTimeout(timer);
      if (err) reject(err);
      else resolve('settled');
    }
  });
}
