/**
 * The log file of one background command: output is appended as it arrives
 * (synchronously, so a reader always sees everything written so far) and read
 * back from where the previous read stopped.
 */
import { closeSync, mkdirSync, openSync, readSync, fstatSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { StringDecoder } from 'node:string_decoder';

/** Characters of the most recent output kept in memory for the end-of-command notification. */
const TAIL_CHARS = 2_000;

export class BackgroundLog {
  private fd: number | null;
  private recent = '';
  private readFrom = 0;
  // reads stop at byte offsets: the decoder holds a character split between two reads
  private readonly decoder = new StringDecoder('utf8');

  private constructor(
    readonly file: string,
    fd: number,
  ) {
    this.fd = fd;
  }

  /** Creates `<dir>/<id>.log` (and `dir`). */
  static create(dir: string, id: string): BackgroundLog {
    mkdirSync(dir, { recursive: true });
    const file = join(dir, `${id}.log`);
    return new BackgroundLog(file, openSync(file, 'w+', 0o600));
  }

  append(chunk: string): void {
    if (this.fd === null) return;
    writeSync(this.fd, chunk);
    this.recent = (this.recent + chunk).slice(-TAIL_CHARS * 2);
  }

  /** The last lines of output (at most about 2 000 characters), for the notification. */
  tail(maxLines = 20): string {
    const text = this.recent.slice(-TAIL_CHARS).trimEnd();
    return text.split('\n').slice(-maxLines).join('\n');
  }

  /** Everything written since the previous call (the first call reads from the start). */
  readNew(): string {
    if (this.fd === null) return '';
    const size = fstatSync(this.fd).size;
    const length = size - this.readFrom;
    if (length <= 0) return '';
    const buffer = Buffer.alloc(length);
    const read = readSync(this.fd, buffer, 0, length, this.readFrom);
    this.readFrom += read;
    return this.decoder.write(buffer.subarray(0, read));
  }

  close(): void {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
  }
}
