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
}

export async function summarise(lead: Lead, startedAt: number): Promise<RunSummary> {
  const tasks: Record<TaskStatus, number> = { pending: 0, in_progress: 0, completed: 0, failed: 0, cancelled: 0 };
  const list = lead.tasks.list();
  for (const t of list) tasks[t.status]++;
  const teammates = readAgentStatuses(lead.options.repoRoot).map((s) => ({
    name: s.name,
    turns: s.turns,
    inputTokens: s.tokens.input,
    outputTokens: s.tokens.output,
    costUsd: s.costUsd,
  }));
  return {
    durationMs: Date.now() - startedAt,
    tasks,
    failed: list.filter((t) => t.status === 'failed').map((t) => ({ id: t.id, error: t.result?.error ?? 'failed' })),
    teammates,
    totalCostUsd: teammates.reduce((a, t) => a + t.costUsd, 0),
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
    ? [`Interrupted after ${(s.durationMs / 1000).toFixed(1)} s: ${counts}; ${s.tasks.pending + s.tasks.in_progress} back on the board for the next run.`]
    : [`Finished in ${(s.durationMs / 1000).toFixed(1)} s: ${counts}.`];
  for (const f of s.failed) lines.push(`  failed ${f.id}: ${f.error}`);
  lines.push('Teammate      turns   tokens in  tokens out   cost USD');
  for (const t of s.teammates) {
    lines.push(`${t.name.padEnd(12)} ${String(t.turns).padStart(6)} ${String(t.inputTokens).padStart(11)} ${String(t.outputTokens).padStart(11)} ${t.costUsd.toFixed(4).padStart(10)}`);
  }
  lines.push(`Total cost: $${s.totalCostUsd.toFixed(4)}`);
  for (const sc of s.scripts.filter((x) => !x.complete)) lines.push(`Script ${sc.spec} not fully used: ${sc.problems.join('; ')}`);
  return lines.join('\n');
}
