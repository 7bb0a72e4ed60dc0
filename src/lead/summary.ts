import { costReport } from '../observe/cost.js';
import { readAgentStatuses } from '../teammate/status-file.js';
import type { TaskStatus } from '../store/types.js';
import type { Lead } from './lead.js';

export interface RunSummary {
  durationMs: number;
  tasks: Record<TaskStatus, number>;
  failed: { id: string; error: string }[];
  teammates: { name: string; turns: number; inputTokens: number; outputTokens: number; costUsd: number }[];
  totalCostUsd: number;
  /** Scripted models: what the script did not use, or calls it could not answer. */
  scripts: { spec: string; complete: boolean; problems: string[] }[];
  /** The run was stopped (Ctrl-C) before every task settled; unfinished tasks went back to the board. */
  interrupted?: boolean;
  /** The team paused for something a person must fix (a refused key, a spent budget): the run ended there. */
  stoppedFor?: string;
}

/**
 * What one run covers: the tasks it created (a goal's plan and what its
 * teammates added), and what every agent had spent before it (from the
 * transcripts), so older tasks and older spending are not counted again.
 */
export interface RunScope {
  isOurs: (taskId: string) => boolean;
  spentBefore: Record<string, number>;
}

/** Every agent's spending so far, from the transcripts (the baseline of a run's scope). */
export async function spentByAgent(lead: Lead): Promise<Record<string, number>> {
  const report = await costReport(lead.options.repoRoot, 'teammate', { prices: lead.config.prices });
  return Object.fromEntries(report.rows.map((r) => [r.key, r.costUsd]));
}

export async function summarise(lead: Lead, startedAt: number, scope?: RunScope): Promise<RunSummary> {
  const tasks: Record<TaskStatus, number> = {
    pending: 0,
    in_progress: 0,
    completed: 0,
    failed: 0,
    cancelled: 0,
  };
  const list = lead.tasks.list().filter((t) => !scope || scope.isOurs(t.id));
  for (const t of list) tasks[t.status]++;
  const spent = scope ? await spentByAgent(lead) : null;
  const runCost = (name: string, fallback: number) =>
    spent ? Math.max(0, (spent[name] ?? 0) - (scope!.spentBefore[name] ?? 0)) : fallback;
  const names = new Set(lead.config.teammates.map((t) => t.name));
  const teammates = readAgentStatuses(lead.options.repoRoot)
    .filter((s) => !scope || names.has(s.name))
    .map((s) => ({
      name: s.name,
      turns: s.turns,
      inputTokens: s.tokens.input,
      outputTokens: s.tokens.output,
      costUsd: runCost(s.name, s.costUsd),
    }));
  const total = spent
    ? Object.keys(spent).reduce((a, k) => a + runCost(k, 0), 0)
    : teammates.reduce((a, t) => a + t.costUsd, 0);
  return {
    durationMs: Date.now() - startedAt,
    tasks,
    failed: list
      .filter((t) => t.status === 'failed')
      .map((t) => ({ id: t.id, error: t.result?.error ?? 'failed' })),
    teammates,
    totalCostUsd: total,
    scripts: lead.models.scriptReports().map(({ spec, report }) => ({
      spec,
      complete: report.complete,
      problems: [
        ...report.unusedSteps.map((e) => `unused ${e.label}`),
        ...report.unusedRules.map((e) => `rule used ${e.used}/${e.times}: ${e.label}`),
        ...report.unmatched.map((u) => `no answer for ${u.agent ?? '?'}: ${u.text.slice(0, 80)}`),
      ],
    })),
  };
}

export function formatSummary(s: RunSummary): string {
  const counts = `${s.tasks.completed} completed, ${s.tasks.failed} failed, ${s.tasks.cancelled} cancelled`;
  const lines = s.interrupted
    ? [
        `Interrupted after ${(s.durationMs / 1000).toFixed(1)} s: ${counts}; ${s.tasks.pending + s.tasks.in_progress} back on the board for the next run.`,
      ]
    : [`Finished in ${(s.durationMs / 1000).toFixed(1)} s: ${counts}.`];
  if (s.stoppedFor) lines.push(`Stopped early: ${s.stoppedFor}`);
  for (const f of s.failed) lines.push(`  failed ${f.id}: ${f.error}`);
  lines.push('Teammate      turns   tokens in  tokens out   cost USD');
  for (const t of s.teammates) {
    lines.push(
      `${t.name.padEnd(12)} ${String(t.turns).padStart(6)} ${String(t.inputTokens).padStart(11)} ${String(t.outputTokens).padStart(11)} ${t.costUsd.toFixed(4).padStart(10)}`,
    );
  }
  lines.push(`Total cost: $${s.totalCostUsd.toFixed(4)}`);
  for (const sc of s.scripts.filter((x) => !x.complete))
    lines.push(`Script ${sc.spec} not fully used: ${sc.problems.join('; ')}`);
  return lines.join('\n');
}
