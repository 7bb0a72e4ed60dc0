/**
 * What `teamd start` and `teamd run` do before any work: the preflight checks
 * (a failure is printed with its fix, exit 1, nothing started, no task
 * touched) and one line with the budgets in force.
 */
import type { TeamConfig } from '../config/schema.js';
import { budgetState } from '../observe/budget.js';
import { fail } from './cli-error.js';
import { printLine } from './output.js';
import { describeFailures, preflight } from './preflight/index.js';

/** Set for the daemon `start` forks: its parent has just run the checks. */
export const CHECKED_ENV = 'TEAMD_PREFLIGHT_DONE';

export interface WorkFlags {
  model?: string;
  teammates?: string;
}

/** The config the work will run with, once every check passed; exits 1 with the fixes otherwise. */
export async function checkBeforeWork(
  repoRoot: string,
  flags: WorkFlags,
  leadAgent: boolean,
): Promise<TeamConfig | null> {
  if (process.env[CHECKED_ENV] === '1') {
    // The daemon's parent checked; its teammates' commands must not inherit the mark.
    delete process.env[CHECKED_ENV];
    return null;
  }
  const teammates = flags.teammates === undefined ? undefined : Number(flags.teammates);
  const result = await preflight({
    repoRoot,
    model: flags.model,
    teammatesFlag: flags.teammates,
    teammates,
    leadAgent,
  });
  if (!result.ok || !result.config)
    fail('not starting: a check failed (teamd doctor shows them all)', describeFailures(result.checks));
  await printBudgets(repoRoot, result.config);
  return result.config;
}

export async function printBudgets(repoRoot: string, config: TeamConfig): Promise<void> {
  const usd = (n: number) => `$${n.toFixed(2)}`;
  if (config.maxBudgetUsd === undefined && config.taskBudgetUsd === undefined) {
    printLine('budgets: none (set maxBudgetUsd and taskBudgetUsd in .team/config.json; see docs/MODELS.md)');
    return;
  }
  const spent = (await budgetState(repoRoot, config)).team.spentUsd;
  const team =
    config.maxBudgetUsd === undefined
      ? 'no team budget'
      : `team ${usd(config.maxBudgetUsd)} (spent $${spent.toFixed(4)})`;
  const task =
    config.taskBudgetUsd === undefined ? 'no per-task budget' : `per task ${usd(config.taskBudgetUsd)}`;
  printLine(`budgets: ${team}, ${task}`);
}
