import type { DashboardState, Line, Segment } from '../types.js';
import { usd } from '../units.js';

function leadSegment(state: DashboardState): Segment {
  const paused = state.lead.paused;
  if (state.lead.running && paused) return { text: `lead pid ${state.lead.pid} · PAUSED (${paused.kind}): ${paused.reason}`, tone: 'bad', bold: true };
  if (state.lead.running) return { text: `lead pid ${state.lead.pid}`, tone: 'ok' };
  if (state.finished) return { text: 'team finished', tone: 'ok', bold: true };
  return { text: 'lead not running', tone: 'muted' };
}

function costSegments(state: DashboardState): Segment[] {
  const team = state.budget.team;
  const over = team.over ? ' over budget!' : '';
  const of = team.maxBudgetUsd !== null ? `/${usd(team.maxBudgetUsd)}` : '';
  return [{ text: ` · ${usd(state.cost.total.costUsd)}${of}${over}`, tone: team.over ? 'bad' : undefined }];
}

/** `teamd top · lead pid 12 · tasks ✔3 ●1 ○2 ✘0 · 1 approval! · $0.0123/$5.00` */
export function headerLine(state: DashboardState): Line {
  const c = state.taskCounts;
  const waiting = state.approvals.length;
  return [
    { text: 'teamd top', bold: true },
    { text: ' · ' },
    leadSegment(state),
    {
      text: ` · tasks ✔${c.completed} ●${c.in_progress} ○${c.pending} ✘${c.failed}`,
      tone: c.failed ? 'bad' : undefined,
    },
    ...(waiting
      ? [{ text: ` · ${waiting} approval${waiting === 1 ? '' : 's'}!`, tone: 'warn' as const, bold: true }]
      : []),
    ...costSegments(state),
  ];
}

export type Focus = 'teammates' | 'approvals';

/** The keys that work now, or the last action's outcome. */
export function footerLine(focus: Focus, flash: string | null): Line {
  if (flash) return [{ text: flash, bold: true }];
  const keys =
    focus === 'teammates' ? '↑↓ select · enter follow transcript' : '↑↓ select · a approve · r reject';
  return [
    { text: `tab ${focus === 'teammates' ? 'approvals' : 'teammates'} · ${keys} · q quit`, tone: 'muted' },
  ];
}
