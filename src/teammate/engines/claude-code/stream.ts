/**
 * Reading the CLI's stdout: bytes into lines, lines into events. Nothing a
 * line holds can throw here or grow memory without bound: a line that is not
 * a JSON object, or an event of a known type with the wrong shape, becomes
 * `junk` with the reason, and the stream goes on.
 */
import type { z } from 'zod';
import { CcInitSchema, CcMessageSchema, CcResultSchema, type CcLine } from './types.js';

/** A longer line is dropped (with a `junk` note) rather than held. */
export const MAX_LINE_BYTES = 16 * 1024 * 1024;

const shapeProblem = (type: string, error: z.ZodError): string =>
  `a "${type}" line of the wrong shape: ${error.issues
    .slice(0, 3)
    .map((i) => `${i.path.join('.') || '(line)'}: ${i.message}`)
    .join('; ')}`;

function parseObject(line: string): Record<string, unknown> | string {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return `not JSON: ${line.slice(0, 80)}`;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return `not a JSON object: ${line.slice(0, 80)}`;
  return value as Record<string, unknown>;
}

/** One line of stdout, read. */
export function parseLine(line: string): CcLine {
  const raw = parseObject(line);
  if (typeof raw === 'string') return { kind: 'junk', problem: raw };
  const type = raw['type'];
  if (typeof type !== 'string') return { kind: 'junk', problem: 'a line without a "type"' };
  if (type === 'system' && raw['subtype'] === 'init') {
    const p = CcInitSchema.safeParse(raw);
    return p.success ? { kind: 'init', event: p.data, raw } : { kind: 'junk', problem: shapeProblem('system/init', p.error) };
  }
  if (type === 'user' || type === 'assistant') {
    const p = CcMessageSchema.safeParse(raw);
    return p.success ? { kind: 'message', event: p.data, raw } : { kind: 'junk', problem: shapeProblem(type, p.error) };
  }
  if (type === 'result') {
    const p = CcResultSchema.safeParse(raw);
    return p.success ? { kind: 'result', event: p.data, raw } : { kind: 'junk', problem: shapeProblem('result', p.error) };
  }
  return { kind: 'other', raw };
}

/**
 * Splits chunks of stdout into lines (a chunk may end mid-line, or mid-character:
 * bytes are kept until their newline). `flush` hands over a last line without one.
 */
export class LineSplitter {
  private parts: Buffer[] = [];
  private size = 0;
  private dropping = false;

  constructor(
    private readonly onLine: (line: string) => void,
    private readonly onTooLong: (bytes: number) => void,
  ) {}

  push(chunk: Buffer): void {
    let start = 0;
    for (let nl = chunk.indexOf(10, start); nl !== -1; nl = chunk.indexOf(10, start)) {
      this.take(chunk.subarray(start, nl));
      this.end();
      start = nl + 1;
    }
    if (start < chunk.length) this.take(chunk.subarray(start));
  }

  flush(): void {
    if (this.size > 0 || this.dropping) this.end();
  }

  private take(piece: Buffer): void {
    if (this.dropping) return void (this.size += piece.length);
    this.size += piece.length;
    if (this.size > MAX_LINE_BYTES) {
      this.dropping = true;
      this.parts = [];
      return;
    }
    if (piece.length) this.parts.push(Buffer.from(piece));
  }

  private end(): void {
    const dropped = this.dropping;
    const size = this.size;
    const text = dropped ? '' : Buffer.concat(this.parts).toString('utf8');
    this.parts = [];
    this.size = 0;
    this.dropping = false;
    if (dropped) this.onTooLong(size);
    else if (text.trim()) this.onLine(text);
  }
}
