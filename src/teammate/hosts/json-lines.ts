/**
 * The framing of the out-of-process hosts: one JSON value per line, UTF-8.
 * `JSON.stringify` never writes a raw newline, so a line is a message. A line
 * longer than the bound, or one that is not JSON, is a broken channel: the
 * reader reports it once and reads nothing more (the caller ends the peer),
 * rather than buffering without end or guessing where the next message starts.
 */
import type { Readable, Writable } from 'node:stream';
import { z } from 'zod';
import { IPC_MAX_CHARS, ipcShapeProblem } from '../protocol.js';

export interface LineHandlers {
  /** One value, and its line's number (from 1), for errors that name it. */
  value: (value: unknown, line: number) => void;
  /** The channel is broken (an over-long or non-JSON line); nothing is read after it. */
  broken: (reason: string) => void;
}

/** Reads JSON lines from `stream` until it ends or a line is bad. */
export function readJsonLines(stream: Readable, on: LineHandlers, maxChars = IPC_MAX_CHARS): void {
  let parts: string[] = [];
  let pending = 0;
  let line = 0;
  let broken = false;
  const fail = (reason: string): void => {
    broken = true;
    parts = [];
    stream.removeListener('data', onData);
    stream.resume(); // drain the rest, unread
    on.broken(reason);
  };
  const onData = (chunk: string): void => {
    let from = 0;
    for (let nl = chunk.indexOf('\n'); nl !== -1 && !broken; nl = chunk.indexOf('\n', from)) {
      parts.push(chunk.slice(from, nl));
      from = nl + 1;
      const text = parts.join('');
      parts = [];
      pending = 0;
      line++;
      if (text.length > maxChars) return fail(`line ${line} is longer than ${maxChars} characters`);
      if (text.trim() !== '') parseLine(text, line, on, fail);
    }
    if (broken) return;
    const rest = chunk.slice(from);
    pending += rest.length;
    if (pending > maxChars) return fail(`line ${line + 1} is longer than ${maxChars} characters`);
    if (rest) parts.push(rest);
  };
  stream.setEncoding('utf8');
  stream.on('data', onData);
}

function parseLine(text: string, line: number, on: LineHandlers, fail: (reason: string) => void): void {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return fail(`line ${line} is not JSON (${(error as Error).message}): ${text.slice(0, 120)}`);
  }
  on.value(value, line);
}

/**
 * Why a value that arrived on line `line` is not a message of `schema`
 * (bounds first, as for a thread's messages), or undefined when it is one.
 */
export function messageProblem(schema: z.ZodType, value: unknown, line: number): string | undefined {
  const shape = ipcShapeProblem(value);
  if (shape !== undefined) return `line ${line}: ${shape}`;
  const parsed = schema.safeParse(value);
  return parsed.success ? undefined : `line ${line} is not a protocol message: ${z.prettifyError(parsed.error).replace(/\n/g, '; ')}`;
}

/** Writes one value as a line; false when the stream is gone (the peer's exit reports the rest). */
export function writeJsonLine(stream: Writable, value: unknown): boolean {
  if (stream.destroyed || stream.writableEnded) return false;
  stream.write(JSON.stringify(value) + '\n');
  return true;
}
