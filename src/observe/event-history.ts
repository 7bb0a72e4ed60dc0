/**
 * The event log across its rotations: the compressed (or not yet compressed)
 * segments in `.team/state/segments/`, oldest first, then the live
 * `events.jsonl`. A segment's stamp is when it was rotated, so it holds only
 * events from before then: `--since` skips every older segment unread.
 */
import { basename, dirname } from 'node:path';
import { listSegments, readSegmentText, stampTime, type Segment } from '../store/segments.js';
import { eventLogPath } from './event-log.js';
import { parseEventText, readLastEvents } from './event-reader.js';
import type { LoggedEvent } from './types.js';

export interface EventFilter {
  /** Only events at or after this time. */
  since?: Date;
  /** Only events of these types. */
  types?: readonly string[];
}

export const matchesFilter = (e: LoggedEvent, f: EventFilter): boolean =>
  (f.since === undefined || Date.parse(e.ts) >= f.since.getTime()) &&
  (f.types === undefined || f.types.includes(e.type));

export async function eventSegments(repoRoot: string): Promise<Segment[]> {
  const file = eventLogPath(repoRoot);
  return listSegments(dirname(file), basename(file));
}

/**
 * Calls `onEvents` with the matching events of each segment and then of the
 * segments (not the live log: see `lastEvents`), oldest first; one segment
 * in memory at a time.
 */
export async function readSegmentEvents(
  repoRoot: string,
  filter: EventFilter,
  onEvents: (events: LoggedEvent[]) => void,
): Promise<void> {
  for (const segment of await eventSegments(repoRoot)) {
    const rotatedAt = stampTime(segment.stamp);
    if (filter.since && rotatedAt < filter.since.getTime()) continue;
    onEvents(parseEventText(readSegment(segment)).filter((e) => matchesFilter(e, filter)));
  }
}

function readSegment(segment: Segment): string {
  try {
    return readSegmentText(segment);
  } catch {
    return ''; // removed by a gc meanwhile, or a damaged segment: the rest is still shown
  }
}

/**
 * The last `count` matching events, oldest first: read backwards from the end
 * of the live log, then from the newest segments back, only as far as needed.
 */
export async function lastEvents(
  repoRoot: string,
  count: number,
  filter: EventFilter = {},
): Promise<{ events: LoggedEvent[]; end: number }> {
  const accept = (e: LoggedEvent): boolean => matchesFilter(e, filter);
  const tooOld = (e: LoggedEvent): boolean =>
    filter.since !== undefined && Date.parse(e.ts) < filter.since.getTime();
  const live = readLastEvents(eventLogPath(repoRoot), count, accept, tooOld);
  let found = live.events;
  if (live.stopped) return { events: found, end: live.end };
  const segments = (await eventSegments(repoRoot)).reverse();
  for (const segment of segments) {
    if (found.length >= count) break;
    if (filter.since && stampTime(segment.stamp) < filter.since.getTime()) break;
    const older = parseEventText(readSegment(segment)).filter(accept);
    found = [...older.slice(-(count - found.length)), ...found];
  }
  return { events: found, end: live.end };
}
