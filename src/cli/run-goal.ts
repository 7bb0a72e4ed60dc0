/**
 * `teamd run "<goal>"`: checks, plans, runs, summarises. Exit 0 when every
 * task of this goal completed, 1 when any did not (or a check failed), 130
 * when interrupted (Ctrl-C, SIGTERM, `teamd stop`), at the plan review too.
 */
import { createInterface } from 'node:readline/promises';
import { runGoal, type PlanVerdict } from '../lead/goal.js';
import { formatSummary, type RunSummary } from '../lead/summary.js';
import type { Task } from '../store/types.js';
import { checkBeforeWork } from './before-work.js';
import { CliError, fail } from './cli-error.js';
import { printLine, printRecordLine } from './output.js';
import { resolveRepoDir } from './repo-dir.js';
import { printEvent, teammatesOf, untilSignal, type StartOptions } from './team-shared.js';

export interface RunOptions extends StartOptions {
  reviewPlan?: boolean;
}

export async function run(goal: string, options: RunOptions): Promise<void> {
  const repoRoot = resolveRepoDir(options);
  if (options.reviewPlan && !process.stdin.isTTY)
    fail(
      '--review-plan asks you at the terminal, and stdin is not a terminal; run it in a terminal, or leave out --review-plan (then the plan runs as planned)',
    );
  await checkBeforeWork(repoRoot, options, true);
  const began = Date.now();
  const interrupt = new AbortController();
  void untilSignal().then(() => {
    printLine('\nteamd: stopping the team gracefully (unfinished tasks go back to the board)');
    interrupt.abort();
  });
  const result = await runGoal({
    signal: interrupt.signal,
    repoRoot,
    goal,
    model: options.model,
    teammates: teammatesOf(options.teammates),
    record: options.record,
    onEvent: printEvent(began),
    reviewPlan: options.reviewPlan ? (plan) => askPlan(plan, interrupt) : undefined,
  });
  if (!result.ok) throw new CliError(result.error, result.exitCode ?? 1);
  printLine('');
  printLine(formatSummary(result.summary));
  process.exitCode = exitCodeOf(result.summary);
}

/** 130 interrupted; 0 only when every task of the goal completed (none failed, cancelled or left over). */
export function exitCodeOf(s: RunSummary): number {
  if (s.interrupted) return 130;
  const all = Object.values(s.tasks).reduce((a, b) => a + b, 0);
  return !s.stoppedFor && all > 0 && s.tasks.completed === all ? 0 : 1;
}

/**
 * The person reviews the plan: approve, edit the task files first, or reject.
 * Ctrl-C at the prompt (readline takes it from the terminal) or a signal
 * (`teamd stop`) ends the review as interrupted.
 */
async function askPlan(plan: Task[], interrupt: AbortController): Promise<PlanVerdict> {
  printLine('\nProposed plan:');
  for (const t of plan)
    printRecordLine(
      `  ${t.id}: ${t.subject}${t.blockedBy.length ? `  (after ${t.blockedBy.join(', ')})` : ''}${t.owner ? ` @${t.owner}` : ''}`,
    );
  const rl = createInterface({ input: process.stdin, output: process.stdout });
  rl.on('SIGINT', () => interrupt.abort());
  const interrupted: PlanVerdict = { approve: false, reason: 'interrupted', interrupted: true };
  // Ctrl-D (the terminal's end of input) closes readline without answering the question.
  const closed = new Promise<null>((resolve) => rl.once('close', () => resolve(null)));
  const ask = (q: string) =>
    Promise.race([rl.question(q, { signal: interrupt.signal }).catch(() => null), closed]);
  try {
    for (;;) {
      const answer = (await ask('Approve the plan? [y]es, [e]dit .tasks/ first, [n]o: '))
        ?.trim()
        .toLowerCase();
      if (answer === undefined || interrupt.signal.aborted) return interrupted;
      if (answer === 'y' || answer === 'yes') return { approve: true };
      if (answer === 'n' || answer === 'no')
        return { approve: false, reason: 'rejected by the person reviewing it' };
      if (answer !== 'e' && answer !== 'edit') continue;
      const edited = await ask('Edit the task files in .tasks/, then press Enter to continue. ');
      return edited === null || interrupt.signal.aborted ? interrupted : { approve: true };
    }
  } finally {
    rl.close();
    printLine('');
  }
}
