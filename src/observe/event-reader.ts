/**
 * Reading the event log without reading all of it: the last N events by
 * reading backwards from the end, and a tail that remembers its offset and
 * reads only what was appended since (`teamd top`, `logs --events -f`). The
 * tail keeps its descriptor across a rotation: it drains the renamed file to
 * its end, then moves on to the new one, so no event is skipped or read twice.
 */
import { closeSync, fstatSync, openSync, readSync, statSync } from 'node:fs';
import { textDepthProblem } from '../store/json-bounds.js';
import { NO_FOLLOW_READ } from '../store/regular-file.js';
import type { LoggedEvent } from './types.js';

const READ_FLAGS = NO_FOLLOW_READ;
const CHUNK = 64 * 1024;

/** One line as an event, or null (blank, torn, foreign, or nested deep enough to overflow later recursion). */
export function parseEventLine(line: string): LoggedEvent | null {
  if (!line.trim() || textDepthProblem(line) !== undefined) return null;
  try {
    const parsed = JSON.parse(line) as LoggedEvent;
    return parsed && typeof parsed.type === 'string' && typeof parsed.ts === 'string' ? parsed : null;
  } catch {
    return null;
  }
}

/** Every event of `text`, oldest first. */
export function parseEventText(text: string): LoggedEvent[] {
  const out: LoggedEvent[] = [];
  for (const line of text.split('\n')) {
    const e = parseEventLine(line);
    if (e) out.push(e);
  }
  return out;
}

/** A regular file opened to read (never a FIFO or a link), or null. */
function openRegular(file: string): number | null {
  let fd: number;
  try {
    fd = openSync(file, READ_FLAGS);
  } catch {
    return null;
  }
  if (fstatSync(fd).isFile()) return fd;
  closeSync(fd);
  return null;
}

function readRange(fd: number, from: number, to: number): Buffer {
  const buffer = Buffer.alloc(Math.max(0, to - from));
  let got = 0;
  while (got < buffer.length) {
    const n = readSync(fd, buffer, got, buffer.length - got, from + got);
    if (n === 0) break;
    got += n;
  }
  return buffer.subarray(0, got);
}

/**
 * The last `count` events of `file` that `accept`, oldest first, reading
 * backwards a chunk at a time (only as far as needed); `end` is where to stop
 * reading (default: the size now); `withinBytes`: read no further back than
 * that from the end (a question whose answer may be absent stays bounded).
 * Returns the events and that end.
 */
export function readLastEvents(
  file: string,
  count: number,
  accept: (e: LoggedEvent) => boolean = () => true,
  stopAt: (e: LoggedEvent) => boolean = () => false,
  withinBytes = Infinity,
): { events: LoggedEvent[]; end: number; stopped: boolean } {
  const fd = openRegular(file);
  if (fd === null) return { events: [], end: 0, stopped: false };
  try {
    const end = fstatSync(fd).size;
    return { ...scanBackwards(fd, end, count, accept, stopAt, Math.max(0, end - withinBytes)), end };
  } finally {
    closeSync(fd);
  }
}

function scanBackwards(
  fd: number,
  end: number,
  count: number,
  accept: (e: LoggedEvent) => boolean,
  stopAt: (e: LoggedEvent) => boolean,
  floor = 0,
): { events: LoggedEvent[]; stopped: boolean } {
  const found: LoggedEvent[] = [];
  let position = end;
  let carry = Buffer.alloc(0); // the start of a line whose beginning is further back
  // One byte before the floor: a line starting on it is whole when that byte ends the line before.
  const stop = Math.max(0, floor - 1);
  while (position > stop && found.length < count) {
    const from = Math.max(stop, position - CHUNK);
    const joined = Buffer.concat([readRange(fd, from, position), carry]);
    position = from;
    // At the file's start the first line is whole; at a floor above it, only from its first newline on.
    const atStart = from === 0 && floor === 0;
    const firstNewline = atStart ? -1 : joined.indexOf(10);
    if (!atStart && firstNewline === -1) {
      carry = joined; // one line longer than a chunk: its start is further back still
      continue;
    }
    carry = firstNewline === -1 ? Buffer.alloc(0) : joined.subarray(0, firstNewline);
    const lines = joined
      .subarray(firstNewline + 1)
      .toString('utf8')
      .split('\n');
    for (let i = lines.length - 1; i >= 0 && found.length < count; i--) {
      const e = parseEventLine(lines[i]!);
      if (!e) continue;
      if (stopAt(e)) return { events: found.reverse(), stopped: true };
      if (accept(e)) found.push(e);
    }
  }
  return { events: found.reverse(), stopped: false };
}

/** What a tail's poll brought. */
export interface TailRead {
  /** Events appended since the last poll (on the first poll: the last `keep` events). */
  events: LoggedEvent[];
  first: boolean;
}

/**
 * Follows the log from where it left off. Only complete lines are taken: a
 * line being written waits for the next poll.
 */
export class EventTail {
  private fd: number | null = null;
  private ino = -1;
  private offset = 0;
  private started = false;

  constructor(
    private readonly file: string,
    /** How many past events the first poll returns; or, with `from`, none: the tail starts at that byte offset. */
    private readonly keep = 50,
    private readonly from?: number,
  ) {}

  poll(): TailRead {
    if (!this.started) return this.start();
    const events = this.drain();
    const now = statSync(this.file, { throwIfNoEntry: false });
    if (now && now.ino !== this.ino) {
      this.close(); // rotated: the old file is read to its end above; the new one from its start
      this.attach(0);
      events.push(...this.drain());
    }
    return { events, first: false };
  }

  close(): void {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
  }

  private start(): TailRead {
    this.started = true;
    if (this.from !== undefined) {
      this.attach(this.from);
      return { events: this.drain(), first: true };
    }
    const { events, end } = readLastEvents(this.file, this.keep);
    this.attach(end);
    // What was appended between the backwards read and the open is read now.
    return { events: [...events, ...this.drain()], first: true };
  }

  private attach(offset: number): void {
    this.fd = openRegular(this.file);
    this.ino = this.fd === null ? -1 : fstatSync(this.fd).ino;
    this.offset = offset;
  }

  private drain(): LoggedEvent[] {
    if (this.fd === null) {
      this.attach(0);
      if (this.fd === null) return [];
    }
    const size = fstatSync(this.fd).size;
    if (size < this.offset) this.offset = 0; // truncated in place: start again
    const bytes = readRange(this.fd, this.offset, size);
    const end = bytes.lastIndexOf(10) + 1;
    this.offset += end;
    return parseEventText(bytes.subarray(0, end).toString('utf8'));
  }
}
