/**
 * Transcript files on disk: a session is `<session>.jsonl` while it may still
 * be written, and `<session>.jsonl.gz` once `teamd gc` compressed it
 * (finished and older than `history.compressAfterMs`). Readers go through
 * here so a compressed session reads like any other.
 */
import { closeSync, fstatSync, openSync, readFileSync, readSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { gunzipSync } from 'node:zlib';

export const COMPRESSED = '.jsonl.gz';

export const isSessionFile = (name: string): boolean => name.endsWith('.jsonl') || name.endsWith(COMPRESSED);

export const isCompressed = (file: string): boolean => file.endsWith(COMPRESSED);

/**
 * The session names of a folder listing, one file each: when a crash left
 * both forms of one session (after the gzip's rename, before the unlink), the
 * plain one is read and the compressed one left for the next gc to redo.
 */
export function sessionNames(names: readonly string[]): string[] {
  const plain = new Set(names.filter((n) => n.endsWith('.jsonl')));
  return names.filter((n) => plain.has(n) || (n.endsWith(COMPRESSED) && !plain.has(n.slice(0, -3))));
}

const readSessionTextOrEmpty = (file: string): string => {
  try {
    return readSessionText(file);
  } catch {
    return '';
  }
};

/** The whole text of a session file, gunzipped when compressed. Throws as readFileSync does. */
export function readSessionText(file: string): string {
  const bytes = readFileSync(file);
  return (isCompressed(file) ? gunzipSync(bytes) : bytes).toString('utf8');
}

/**
 * The text of a file from byte `offset` on (a session being written is read
 * on from where the last call stopped); a compressed session is finished, so
 * all of it at offset 0 and nothing after. Empty when the file is gone.
 */
export async function readSessionFrom(file: string, offset: number): Promise<string> {
  if (isCompressed(file)) return offset > 0 ? '' : readSessionTextOrEmpty(file);
  let handle;
  try {
    handle = await open(file, 'r');
    const { size } = await handle.stat();
    if (size <= offset) return '';
    const buffer = Buffer.alloc(size - offset);
    await handle.read(buffer, 0, buffer.length, offset);
    return buffer.toString('utf8');
  } catch {
    return '';
  } finally {
    await handle?.close();
  }
}

/**
 * `readSessionFrom` without the event loop: a long-lived reader reads a folder
 * of finished sessions in one synchronous batch, so each file's buffer and
 * parse die young instead of surviving awaits into the old generation (most
 * of `teamd top`'s first-read peak at 20,000 sessions; issue 24).
 */
export function readSessionFromSync(file: string, offset: number): string {
  if (isCompressed(file)) return offset > 0 ? '' : readSessionTextOrEmpty(file);
  let fd: number | null = null;
  try {
    fd = openSync(file, 'r');
    const { size } = fstatSync(fd);
    if (size <= offset) return '';
    const buffer = Buffer.alloc(size - offset);
    readSync(fd, buffer, 0, buffer.length, offset);
    return buffer.toString('utf8');
  } catch {
    return '';
  } finally {
    if (fd !== null) closeSync(fd);
  }
}
