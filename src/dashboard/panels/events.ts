import { needsYou } from '../../notify/needs-you.js';
import { formatEvent } from '../../observe/format-event.js';
import type { LoggedEvent } from '../../observe/types.js';
import type { Line, Tone } from '../types.js';
import { fit, shortAge } from '../units.js';

function toneOf(e: LoggedEvent): Tone | undefined {
  const n = needsYou(e);
  if (n) return n.kind === 'approval' || n.kind === 'review' ? 'warn' : n.kind === 'team_finished' ? 'ok' : 'bad';
  if (e.type === 'task_completed' || e.type === 'merge_merged') return 'ok';
  if (e.type === 'merge_refused' || e.type === 'worktree_failed' || e.type === 'task_problem') return 'warn';
  return undefined;
}

/** The newest readable events that fit, oldest at the top, each with its age. */
export function eventLines(
  events: readonly LoggedEvent[],
  now: number,
  height: number,
  width: number,
): Line[] {
  const shown: Line[] = [];
  for (let i = events.length - 1; i >= 0 && shown.length < height; i--) {
    const e = events[i]!;
    const text = formatEvent(e);
    if (text === null) continue;
    const age = shortAge(now - Date.parse(e.ts)).padStart(4);
    shown.unshift([
      { text: `${age} `, tone: 'muted' },
      { text: fit(text.replace(/\s+/g, ' '), width - 5), tone: toneOf(e) },
    ]);
  }
  return shown.length ? shown : [[{ text: 'no events yet', tone: 'muted' }]];
}
