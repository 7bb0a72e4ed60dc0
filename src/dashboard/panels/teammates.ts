import { LOOK_TONE } from '../theme.js';
import type { Line, TeammateView } from '../types.js';
import { fit, shortAge, shortCount, usd } from '../units.js';
import { capLines } from './section.js';

const COLUMNS = { name: 10, look: 8, beat: 5, runs: 5, tokens: 13, cost: 9 };
const FIXED =
  2 + COLUMNS.name + COLUMNS.look + COLUMNS.beat + COLUMNS.runs + COLUMNS.tokens + COLUMNS.cost + 6;

const taskWidth = (width: number): number => Math.max(8, width - FIXED);

function header(width: number): Line {
  const c = COLUMNS;
  const text = `  ${'TEAMMATE'.padEnd(c.name)} ${'STATE'.padEnd(c.look)} ${'TASK'.padEnd(taskWidth(width))} ${'BEAT'.padStart(c.beat)} ${'RUNS'.padStart(c.runs)} ${'TOKENS in/out'.padStart(c.tokens)} ${'COST'.padStart(c.cost)}`;
  return [{ text: fit(text, width), bold: true }];
}

function row(t: TeammateView, width: number, selected: boolean): Line {
  const c = COLUMNS;
  const task =
    t.look === 'waiting'
      ? `${t.task ?? ''} (approval)`.trim()
      : t.stall === 'no_progress'
        ? `${t.task ?? ''} (no progress)`.trim()
        : (t.task ?? '-');
  const cost = `${usd(t.costUsd)}${t.overBudget ? '!' : ''}`;
  return [
    { text: selected ? '› ' : '  ', inverse: selected },
    { text: fit(t.name, c.name).padEnd(c.name), bold: true, inverse: selected },
    { text: ' ' },
    { text: t.look.padEnd(c.look), tone: LOOK_TONE[t.look] },
    { text: ` ${fit(task, taskWidth(width)).padEnd(taskWidth(width))}` },
    {
      text: ` ${shortAge(t.heartbeatAgeMs).padStart(c.beat)}`,
      tone: t.stall === 'no_heartbeat' ? 'alert' : 'muted',
    },
    { text: ` ${(t.runs === null ? '-' : String(t.runs)).padStart(c.runs)}` },
    { text: ` ${`${shortCount(t.tokens.input)}/${shortCount(t.tokens.output)}`.padStart(c.tokens)}` },
    { text: ` ${cost.padStart(c.cost)}`, tone: t.overBudget ? 'bad' : undefined },
  ];
}

/**
 * The teammates table: a header and one row per teammate, the selected one
 * marked. RUNS, TOKENS and COST are all time (the transcripts), like `teamd
 * cost`; `teamd status` counts turns since the daemon started.
 */
export function teammateLines(
  teammates: readonly TeammateView[],
  height: number,
  width: number,
  selected: number | null,
): Line[] {
  if (!teammates.length)
    return [header(width), [{ text: '  no teammates in .team/config.json', tone: 'muted' }]];
  return [
    header(width),
    ...capLines(
      teammates.map((t, i) => row(t, width, i === selected)),
      height - 1,
      'teammates',
    ),
  ];
}
