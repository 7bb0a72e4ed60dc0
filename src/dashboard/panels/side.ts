/** The right-hand column: approvals waiting, mailboxes, cron and the merge queue. */
import { hiddenLinesMark } from '../../observe/hidden-lines.js';
import type { DashboardState, Line } from '../types.js';
import { firstLine, fit, shortAge } from '../units.js';
import { capLines, titleLine } from './section.js';

export function approvalLines(
  approvals: DashboardState['approvals'],
  height: number,
  width: number,
  selected: number | null,
  reviews: Pick<DashboardState['tasks'][number], 'id' | 'owner' | 'subject'>[] = [],
): Line[] {
  const title = titleLine(`Approvals (${approvals.length})${reviews.length ? ` · reviews (${reviews.length})` : ''}`, width);
  const none: Line = [{ text: 'nothing waits for you', tone: 'muted' }];
  if (!approvals.length && !reviews.length) return [title, none].slice(0, height);
  const rows: Line[] = approvals.map((a, i) => {
    const mark = i === selected ? '› ' : '  ';
    const summary = firstLine(a.summary);
    const what = a.kind === 'plan' && !/^plan\b/i.test(summary) ? `plan: ${summary}` : summary;
    // Never cut off: the lines the row leaves out (`teamd approvals show <id>` prints them).
    const hidden = hiddenLinesMark(a.summary);
    return [
      { text: mark, inverse: i === selected },
      { text: `${a.agent} `, bold: true, inverse: i === selected },
      { text: fit(what, width - mark.length - a.agent.length - 1 - hidden.length), tone: 'warn' },
      ...(hidden ? [{ text: hidden, tone: 'alert' as const }] : []),
    ];
  });
  return [title, ...capLines([...rows, ...reviews.map(reviewLine(width))], height - 1, 'waiting')];
}

/** A finished task waiting in review: `teamd review <id>` shows it. */
const reviewLine =
  (width: number) =>
  (t: { id: string; owner: string | null; subject: string }): Line => {
    const head = `  review ${t.id} `;
    return [
      { text: head, bold: true },
      { text: fit(`${t.owner ?? ''}: ${firstLine(t.subject)}`, Math.max(0, width - head.length)), tone: 'warn' },
    ];
  };

export function mailLines(mail: DashboardState['mail'], height: number, width: number): Line[] {
  const rows: Line[] = mail.map((m) => {
    const count = `${m.unread} unread`;
    const latest = m.latest ? `${m.latest.from}: ${firstLine(m.latest.content)}` : '—';
    const head = `${fit(m.agent, 9).padEnd(9)} ${count.padEnd(9)}`;
    return [
      { text: head, tone: m.unread ? 'accent' : 'muted', bold: m.unread > 0 },
      { text: ` ${fit(latest, width - head.length - 1)}`, tone: 'muted' },
    ];
  });
  return [titleLine('Mail', width), ...capLines(rows, height - 1, 'mailboxes')];
}

/** Cron jobs with their next fire, then one line for the merge queue. */
export function cronMergeLines(
  state: Pick<DashboardState, 'cron' | 'merges' | 'now'>,
  height: number,
  width: number,
): Line[] {
  const jobs = state.cron.filter((j) => !j.done);
  const cron: Line[] = jobs.map((j) => {
    const next = j.next ? `in ${shortAge(Date.parse(j.next) - state.now)}` : 'never';
    return [{ text: fit(`${j.id} → ${j.to}`, width - next.length - 1) }, { text: ` ${next}`, tone: 'muted' }];
  });
  const count = (s: string): number => state.merges.filter((m) => m.state === s).length;
  const refused = state.merges.filter((m) => m.state === 'refused').map((m) => m.taskId);
  const parts = ['queued', 'merging', 'merged'].filter((s) => count(s) > 0).map((s) => `${count(s)} ${s}`);
  const queue = `merges: ${parts.join(', ') || (refused.length ? '' : 'none yet')}`;
  const mergeLine: Line = [
    { text: fit(queue, width) },
    ...(refused.length
      ? [
          {
            text: fit(` · refused ${refused.join(', ')}`, Math.max(0, width - queue.length)),
            tone: 'bad' as const,
          },
        ]
      : []),
  ];
  const body = capLines(cron.length ? cron : [[{ text: 'no cron jobs', tone: 'muted' }]], height - 2, 'jobs');
  return [titleLine('Cron · merges', width), ...body, mergeLine].slice(0, height);
}

/** Splits the column's height: approvals first (they need you), then cron and merges, mail takes the rest. */
export function sideHeights(
  state: Pick<DashboardState, 'approvals' | 'cron' | 'mail'>,
  height: number,
  reviews = 0,
): { approvals: number; mail: number; cron: number } {
  // The approvals panel lists the tasks in review too: count them, or one review hides the only approval.
  const rows = state.approvals.length + reviews;
  const approvals = Math.min(1 + Math.max(1, rows), Math.max(2, Math.floor(height / 2)));
  const cron = Math.min(
    2 + Math.max(1, state.cron.filter((j) => !j.done).length),
    Math.max(3, height - approvals - 2),
  );
  return { approvals, cron, mail: Math.max(0, height - approvals - cron) };
}
