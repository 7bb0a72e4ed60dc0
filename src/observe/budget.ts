/**
 * Budgets: `maxBudgetUsd` per teammate and for the whole team in
 * `.team/config.json`. What was spent comes from the transcripts (see
 * cost.ts), so a restarted daemon sees the same totals. These functions only
 * decide; the lead acts on the decision: a teammate over its budget stops
 * taking tasks and says so, a team over its budget stops gracefully.
 * Reaching the budget counts as over it (spent >= max).
 */
import type { TeamConfig } from '../config/schema.js';
import { costReport, type TranscriptSpendReader } from './cost.js';

export interface TeammateBudget {
  name: string;
  spentUsd: number;
  /** null: no budget for this teammate. */
  maxBudgetUsd: number | null;
  over: boolean;
}

export interface BudgetState {
  teammates: TeammateBudget[];
  /** Names of the teammates at or over their budget. */
  overTeammates: string[];
  /** Everything the team spent (teammates and the lead agent) against the team's budget. */
  team: { spentUsd: number; maxBudgetUsd: number | null; over: boolean };
}

/** What became over budget between two decisions: act on these once. */
export interface BudgetChange {
  teammates: string[];
  team: boolean;
}

const isOver = (spent: number, max: number | null): boolean => max !== null && spent >= max;

/** The decision from what each agent spent (pure). Agents not in the config count for the team only. */
export function decideBudget(
  spentByAgent: Readonly<Record<string, number>>,
  config: Pick<TeamConfig, 'teammates' | 'maxBudgetUsd'>,
): BudgetState {
  const teammates = config.teammates.map((t) => {
    const spentUsd = spentByAgent[t.name] ?? 0;
    const maxBudgetUsd = t.maxBudgetUsd ?? null;
    return { name: t.name, spentUsd, maxBudgetUsd, over: isOver(spentUsd, maxBudgetUsd) };
  });
  const spentUsd = Object.values(spentByAgent).reduce((a, b) => a + b, 0);
  const maxBudgetUsd = config.maxBudgetUsd ?? null;
  return {
    teammates,
    overTeammates: teammates.filter((t) => t.over).map((t) => t.name),
    team: { spentUsd, maxBudgetUsd, over: isOver(spentUsd, maxBudgetUsd) },
  };
}

/** What is over budget in `next` and was not in `previous` (everything over, when there is no previous). */
export function budgetChange(previous: BudgetState | null, next: BudgetState): BudgetChange {
  const before = new Set(previous?.overTeammates ?? []);
  return {
    teammates: next.overTeammates.filter((n) => !before.has(n)),
    team: next.team.over && !(previous?.team.over ?? false),
  };
}

/** The budget decision for the repository, from its transcripts. */
export async function budgetState(
  repoRoot: string,
  config: TeamConfig,
  options: { reader?: TranscriptSpendReader } = {},
): Promise<BudgetState> {
  const report = await costReport(repoRoot, 'teammate', { prices: config.prices, reader: options.reader });
  return decideBudget(Object.fromEntries(report.rows.map((r) => [r.key, r.costUsd])), config);
}

/** What a teammate (with `name`) or the team (without) says when it stops for its budget. */
export function budgetMessage(b: { name?: string; spentUsd: number; maxBudgetUsd: number | null }): string {
  const spent = `spent $${b.spentUsd.toFixed(4)} of its $${(b.maxBudgetUsd ?? 0).toFixed(2)} budget`;
  return b.name ? `${b.name} ${spent}; it takes no more tasks` : `the team ${spent}; it takes no new work`;
}
