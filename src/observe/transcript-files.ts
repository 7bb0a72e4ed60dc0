/**
 * Transcript files on disk: a session is `<session>.jsonl` while it may still
 * be written, and `<session>.jsonl.gz` once `teamd gc` compressed it
 * (finished and older than `history.compressAfterMs`). Readers go through
 * here so a compressed session reads like any other.
 */
import { closeSync, readFileSync, readSync } from 'node:fs';
import { openRegular, openRegularSync } from '../store/regular-file.js';
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

/**
 * Anyone who can write the repository (a teammate's bash too) can put a FIFO
 * named `x.jsonl` in a transcripts folder, which blocked every reader's
 * `open` forever (`top`, `cost`, the lead's budget check), or a link to any
 * file of the user's. Sessions are opened without following a link and
 * without blocking, then must be regular files within a size no session
 * reaches; anything else reads as a file gone.
 */
const MAX_SESSION_BYTES = 1024 ** 3;

/** `file` opened for reading if it is a regular session file; throws otherwise. */
function openSessionSync(file: string): { fd: number; size: number } {
  const opened = openRegularSync(file, MAX_SESSION_BYTES);
  if (!opened) throw new Error(`${file}: gone, or not a regular session file`);
  return opened;
}

const readSessionTextOrEmpty = (file: string): string => {
  try {
    return readSessionText(file);
  } catch {
    return '';
  }
};

/** The whole text of a session file, gunzipped when compressed. Throws when it is gone or not a regular file. */
export function readSessionText(file: string): string {
  const { fd } = openSessionSync(file);
  try {
    const bytes = readFileSync(fd);
    return (isCompressed(file) ? gunzipSync(bytes) : bytes).toString('utf8');
  } finally {
    closeSync(fd);
  }
}

/**
 * The text of a file from byte `offset` on (a session being written is read
 * on from where the last call stopped); a compressed session is finished, so
 * all of it at offset 0 and nothing after. Empty when the file is gone.
 */
export async function readSessionFrom(file: string, offset: number): Promise<string> {
  if (isCompressed(file)) return offset > 0 ? '' : readSessionTextOrEmpty(file);
  const opened = await openRegular(file, MAX_SESSION_BYTES);
  if (!opened) return '';
  const { handle, stats } = opened;
  try {
    if (stats.size <= offset) return '';
    const buffer = Buffer.alloc(stats.size - offset);
    await handle.read(buffer, 0, buffer.length, offset);
    return buffer.toString('utf8');
  } catch {
    return '';
  } finally {
    await handle.close();
  }
}

/**
 * Where a reader stopped in a plain session file: the byte after its last
 * complete line, and hashes of the file's first bytes and of the bytes just
 * before `offset`. A file truncated, or replaced with other text, no longer
 * matches its mark and is read again whole (issue 24). The hashes catch an
 * accident, not an adversary: a rewrite that keeps both ends is not seen.
 */
export interface ReadMark {
  offset: number;
  head: number;
  tail: number;
}

/** Bytes hashed at each end of a mark. */
const MARK_BYTES = 128;

/** FNV-1a over `length` bytes of the file from `from`. */
function hashAt(fd: number, from: number, length: number): number {
  const bytes = Buffer.alloc(Math.max(0, length));
  const got = readSync(fd, bytes, 0, bytes.length, from);
  let h = 0x811c9dc5;
  for (let i = 0; i < got; i++) h = Math.imul(h ^ bytes[i]!, 0x01000193) >>> 0;
  return h;
}

const markOf = (fd: number, offset: number): ReadMark => ({
  offset,
  head: hashAt(fd, 0, Math.min(MARK_BYTES, offset)),
  tail: hashAt(fd, Math.max(0, offset - MARK_BYTES), Math.min(MARK_BYTES, offset)),
});

const stillHolds = (fd: number, size: number, mark: ReadMark | null): mark is ReadMark => {
  if (!mark || mark.offset > size) return false;
  const now = markOf(fd, mark.offset);
  return now.head === mark.head && now.tail === mark.tail;
};

export interface ReadOn {
  /** The complete lines read (a torn last line is left for the next read). */
  text: string;
  /** The text is the whole file: what was read of it before no longer counts. */
  whole: boolean;
  mark: ReadMark;
}

/**
 * Synchronous, without the event loop: a long-lived reader reads a folder of
 * finished sessions in one batch, so each file's buffer and parse die young
 * instead of surviving awaits into the old generation (issue 24).
 * The complete lines after `mark` when the file still holds what the mark saw,
 * else every complete line (`whole`). A compressed session is read whole each
 * time (it changes only when replaced). A file gone reads as empty and whole.
 */
export function readSessionOnSync(file: string, mark: ReadMark | null): ReadOn {
  const none = { text: '', whole: true, mark: { offset: 0, head: 0, tail: 0 } };
  if (isCompressed(file)) return { ...none, text: readSessionTextOrEmpty(file) };
  let fd: number | null = null;
  try {
    let size: number;
    ({ fd, size } = openSessionSync(file));
    const from = stillHolds(fd, size, mark) ? mark.offset : 0;
    const buffer = Buffer.alloc(Math.max(0, size - from));
    const got = readSync(fd, buffer, 0, buffer.length, from);
    const end = buffer.subarray(0, got).lastIndexOf(10) + 1;
    return { text: buffer.toString('utf8', 0, end), whole: from === 0, mark: markOf(fd, from + end) };
  } catch {
    return none;
  } finally {
    if (fd !== null) closeSync(fd);
  }
}
