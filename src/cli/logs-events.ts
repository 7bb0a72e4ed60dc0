/**
 * `teamd logs --events`: the team events across the log's rotated segments,
 * filtered (`--since`, `--type`), the last N (`--tail`, read backwards from
 * the end), and followed (`-f`, from the byte where the read stopped).
 */
import { eventLogPath } from '../observe/event-log.js';
import { lastEvents, matchesFilter, readSegmentEvents, type EventFilter } from '../observe/event-history.js';
import { EventTail, readLastEvents } from '../observe/event-reader.js';
import { formatEvent } from '../observe/format-event.js';
import type { LoggedEvent } from '../observe/types.js';
import { fail } from './cli-error.js';
import { printJsonLine, printRecordLine } from './output.js';

export interface EventLogOptions {
  json?: boolean;
  since?: string;
  tail?: string;
  type?: string;
}

/** `--since`: an ISO time, or an age like `30s`, `15m`, `2h`, `7d` before now. */
export function parseSince(text: string, now = Date.now()): Date {
  const age = /^(\d+)\s*(s|m|h|d)$/.exec(text.trim());
  if (age) return new Date(now - Number(age[1]) * { s: 1e3, m: 6e4, h: 36e5, d: 864e5 }[age[2] as 's']);
  const at = Date.parse(text);
  return Number.isFinite(at)
    ? new Date(at)
    : fail(`--since: not a time or an age (e.g. 2026-12-01T10:00:00Z, 15m, 2h, 7d): "${text}"`);
}

function parseTail(text: string): number {
  const n = Number(text);
  return Number.isInteger(n) && n >= 0 ? n : fail(`--tail: must be a whole number ≥ 0, not "${text}"`);
}

export function eventFilterOf(o: EventLogOptions): EventFilter {
  const types = o.type
    ?.split(',')
    .map((t) => t.trim())
    .filter(Boolean);
  return {
    since: o.since === undefined ? undefined : parseSince(o.since),
    types: types?.length ? types : undefined,
  };
}

export function printEvents(events: readonly LoggedEvent[], json: boolean | undefined): void {
  for (const e of events) {
    if (json) printJsonLine(e);
    else {
      const readable = formatEvent(e);
      if (readable !== null) printRecordLine(`${e.ts.replace('T', ' ')}  ${readable}`);
    }
  }
}

/**
 * Prints what was asked and returns a tail positioned right after it (for
 * `--follow`), so nothing appended meanwhile is missed or printed twice.
 */
export async function printEventLog(repoRoot: string, o: EventLogOptions): Promise<() => void> {
  const filter = eventFilterOf(o);
  const file = eventLogPath(repoRoot);
  if (o.tail !== undefined) {
    const last = await lastEvents(repoRoot, parseTail(o.tail), filter);
    printEvents(last.events, o.json);
    return followFrom(file, last.end, filter, o.json);
  }
  await readSegmentEvents(repoRoot, filter, (events) => printEvents(events, o.json));
  const tooOld = (e: LoggedEvent): boolean =>
    filter.since !== undefined && Date.parse(e.ts) < filter.since.getTime();
  const live = readLastEvents(file, Infinity, (e) => matchesFilter(e, filter), tooOld);
  printEvents(live.events, o.json);
  return followFrom(file, live.end, filter, o.json);
}

/** A poll printing the matching events appended after byte `end`. */
function followFrom(file: string, end: number, filter: EventFilter, json: boolean | undefined): () => void {
  const tail = new EventTail(file, 0, end);
  return () =>
    printEvents(
      tail.poll().events.filter((e) => matchesFilter(e, filter)),
      json,
    );
}
