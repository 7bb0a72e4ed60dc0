import { closeSync, constants, existsSync, fstatSync, mkdirSync, openSync, statSync, writeSync } from 'node:fs';
import { textDepthProblem } from '../store/json-bounds.js';
import { readStateTextSync } from '../store/state-file.js';
import { dirname, join } from 'node:path';
import type { LoggedEvent, TeamEvent } from './types.js';

export const eventLogPath = (repoRoot: string): string => join(repoRoot, '.team', 'state', 'events.jsonl');

/**
 * The log's file stays open for appending, one descriptor per file and thread
 * (shared by every EventLog of it): an open and a close per event cost twice
 * the write itself. Dropped on a failed write, and opened again next time.
 */
const openLogs = new Map<string, number>();
/** When each open log was last checked against its path (see `rotatedAway`). */
const checkedAt = new Map<string, number>();
const RECHECK_MS = 1000;

/**
 * Whether the path now names another file than `fd` (the log was rotated: see
 * history/rotation.ts). Checked at most once a second, so a writer moves to
 * the new file within a second; the rotation compresses a segment only after
 * it has been quiet for longer than that.
 */
function rotatedAway(file: string, fd: number): boolean {
  const now = Date.now();
  if (now - (checkedAt.get(file) ?? 0) < RECHECK_MS) return false;
  checkedAt.set(file, now);
  const path = statSync(file, { throwIfNoEntry: false });
  return path?.ino !== fstatSync(fd).ino;
}

function appendLine(file: string, line: string): void {
  let fd = openLogs.get(file);
  if (fd !== undefined && rotatedAway(file, fd)) {
    openLogs.delete(file);
    closeSync(fd);
    fd = undefined;
  }
  if (fd === undefined) {
    openLogs.set(file, (fd = openForAppend(file)));
    checkedAt.set(file, Date.now());
  }
  try {
    writeSync(fd, line);
  } catch (err) {
    openLogs.delete(file);
    closeSync(fd);
    throw err;
  }
}

const APPEND_FLAGS =
  constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW | constants.O_NONBLOCK;

/**
 * Opens the log to append, only as a regular file: a FIFO put in its place
 * (which would block an ordinary open until someone reads it) fails at once
 * (ENXIO), a link (to a secret, to /dev/zero) is not followed (ELOOP).
 */
function openForAppend(file: string): number {
  const fd = openSync(file, APPEND_FLAGS, 0o644);
  if (fstatSync(fd).isFile()) return fd;
  closeSync(fd);
  throw new Error(`${file} is not a regular file; events are not appended to it`);
}

/**
 * Appends events as JSON lines. One `write` per line with O_APPEND, so lines
 * from the lead, its worker threads and CLI processes never interleave
 * mid-line (each line is far below the size the kernel writes at once).
 */
export class EventLog {
  constructor(
    private readonly file: string,
    private readonly onEvent?: (event: LoggedEvent) => void,
  ) {
    mkdirSync(dirname(file), { recursive: true });
  }

  static forRepo(repoRoot: string, onEvent?: (event: LoggedEvent) => void): EventLog {
    return new EventLog(eventLogPath(repoRoot), onEvent);
  }

  /** `at`: when it happened, if that was before now (a change logged after its write returned). */
  append(event: TeamEvent, at?: Date): LoggedEvent {
    const logged: LoggedEvent = { ts: (at ?? new Date()).toISOString(), ...event };
    try {
      appendLine(this.file, JSON.stringify(logged) + '\n');
    } catch {
      // The log is an observer: a full or read-only disk must not stop the team.
    }
    this.onEvent?.(logged);
    return logged;
  }
}

/**
 * Every parseable event of the live log (not its rotated segments), oldest
 * first; torn or foreign lines are skipped. Reads the whole file: the daemon
 * and the dashboards use event-reader.ts instead; this is for tests and tools.
 */
export function readEvents(repoRoot: string): LoggedEvent[] {
  const file = eventLogPath(repoRoot);
  if (!existsSync(file)) return [];
  const events: LoggedEvent[] = [];
  for (const line of readStateTextSync(file).split('\n')) {
    if (!line.trim() || textDepthProblem(line) !== undefined) continue; // a deep line would overflow later recursion
    try {
      const parsed = JSON.parse(line) as LoggedEvent;
      if (parsed && typeof parsed.type === 'string') events.push(parsed);
    } catch {
      // a torn last line after a crash
    }
  }
  return events;
}
