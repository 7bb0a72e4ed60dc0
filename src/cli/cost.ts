import type { Command } from 'commander';
import { z } from 'zod';
import { loadConfig } from '../config/load.js';
import { decideBudget, type BudgetState } from '../observe/budget.js';
import { COST_GROUPINGS, formatCostReport, TranscriptSpendReader } from '../observe/cost.js';
import { formatLedger, ledgerRows } from '../observe/token-ledger.js';
import { ledgerCallsFromTranscripts } from '../observe/token-ledger-transcripts.js';
import { fail } from './cli-error.js';
import { teamFactsOf } from './token-facts.js';
import { printJson, printLine } from './output.js';
import { addDirOption, resolveRepoDir, type DirOption } from './repo-dir.js';

export interface CostCommandOptions extends DirOption {
  json?: boolean;
  by?: string;
  /** The token ledger: tokens per teammate and per task, cache share, coordination share, schema tokens per call. */
  tokens?: boolean;
}

const BySchema = z.enum(COST_GROUPINGS);

export function registerCostCommand(program: Command): void {
  addDirOption(
    program
      .command('cost')
      .description('tokens (in, out, cache read and write) and dollars spent, from the transcripts'),
  )
    .option('--by <what>', `group by ${COST_GROUPINGS.join(', ')}`, 'teammate')
    .option('--json', 'print JSON')
    .option('--tokens', 'the token ledger: per teammate and task, cache and coordination shares')
    .action((o: CostCommandOptions) => (o.tokens ? costTokens(o) : cost(o)));
}

export async function cost(options: CostCommandOptions): Promise<void> {
  const by = BySchema.safeParse(options.by ?? 'teammate');
  if (!by.success) fail(`--by: must be one of ${COST_GROUPINGS.join(', ')}, got "${options.by}"`);
  const repoRoot = resolveRepoDir(options);
  const loaded = await loadConfig(repoRoot);
  if (!loaded.ok) fail(loaded.error);
  const reader = new TranscriptSpendReader(repoRoot, loaded.config.prices);
  const report = await reader.report(by.data);
  const perAgent = await reader.report('teammate');
  const budget = decideBudget(
    Object.fromEntries(perAgent.rows.map((r) => [r.key, r.costUsd])),
    loaded.config,
  );
  if (options.json) return printJson({ ...report, budget });
  for (const line of [...formatCostReport(report), ...budgetLines(budget)]) printLine(line);
}

/** `teamd cost --tokens`: the token ledger of the repository's transcripts. */
export async function costTokens(options: CostCommandOptions): Promise<void> {
  const repoRoot = resolveRepoDir(options);
  const loaded = await loadConfig(repoRoot);
  if (!loaded.ok) fail(loaded.error);
  const calls = ledgerCallsFromTranscripts(repoRoot, teamFactsOf(loaded.config));
  const teammates = ledgerRows(calls, 'teammate');
  const tasks = ledgerRows(calls, 'task');
  if (options.json) return printJson({ teammates, tasks });
  for (const line of [...formatLedger('teammate', teammates), '', ...formatLedger('task', tasks)])
    printLine(line);
}

/** The budgets that are set, with what was spent against them. */
export function budgetLines(budget: BudgetState): string[] {
  const lines: string[] = [];
  const mark = (over: boolean): string => (over ? '  OVER BUDGET' : '');
  if (budget.team.maxBudgetUsd !== null)
    lines.push(
      `team budget: $${budget.team.spentUsd.toFixed(4)} of $${budget.team.maxBudgetUsd.toFixed(2)}${mark(budget.team.over)}`,
    );
  for (const t of budget.teammates.filter((x) => x.maxBudgetUsd !== null)) {
    lines.push(
      `${t.name} budget: $${t.spentUsd.toFixed(4)} of $${t.maxBudgetUsd!.toFixed(2)}${mark(t.over)}`,
    );
  }
  return lines.length ? ['', ...lines] : [];
}
