/**
 * Rotated segments of an append-only file (the event log, the daemon log, a
 * mailbox archive): `<dir>/<file>` moves to `<dir>/segments/<stem>.<stamp><ext>`
 * by one rename, and a raw segment is compressed to `<same>.gz` once no writer
 * can still hold it open (its mtime is older than the quiet period).
 *
 * Crash safety, step by step: the rename is atomic (the file is either live or
 * a raw segment); the gzip goes to a hidden temp file, is fsynced and renamed
 * to `.gz`; only then is the raw segment unlinked. A crash between those two
 * leaves both: readers take the raw one (the `.gz` is never newer), and the
 * next pass compresses it again over the `.gz`. A line is never lost or read twice.
 */
import { closeSync, constants, createReadStream, readFileSync } from 'node:fs';
import { mkdir, open, readdir, rename, stat, unlink, type FileHandle } from 'node:fs/promises';
import { basename, extname, join } from 'node:path';
import { freshTempOf } from './atomic.js';
import { openRegular, openRegularSync } from './regular-file.js';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip, gunzipSync } from 'node:zlib';

/** One segment of a file's history, oldest first by name. */
export interface Segment {
  path: string;
  compressed: boolean;
  /** The rotation stamp: segments sort by it. */
  stamp: string;
}

export const segmentsFolder = (dir: string): string => join(dir, 'segments');

/** `20261201T132600123Z-000-42` → that time in ms (NaN when it is not a stamp). */
export function stampTime(stamp: string): number {
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})(\d{3})Z/.exec(stamp);
  return m ? Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +m[6]!, +m[7]!) : NaN;
}

/** `events.jsonl` → `['events', '.jsonl']`. */
function splitName(file: string): [string, string] {
  const ext = extname(file);
  return [basename(file, ext), ext];
}

let lastStamp = '';
let sequence = 0;

/** A sortable stamp of `now`, unique within this process (a counter after the time). */
export function rotationStamp(now: Date): string {
  const base = now.toISOString().replace(/[-:.]/g, '');
  sequence = base === lastStamp ? sequence + 1 : 0;
  lastStamp = base;
  return `${base}-${String(sequence).padStart(3, '0')}-${process.pid}`;
}

/**
 * Moves `file` (in `dir`) into its segments folder as a raw segment. Returns
 * the segment's path, or null when there was no file (or it was empty).
 */
export async function rotateFile(dir: string, file: string, now = new Date()): Promise<string | null> {
  const from = join(dir, file);
  const size = await stat(from).then(
    (s) => (s.isFile() ? s.size : 0),
    () => 0,
  );
  if (size === 0) return null;
  const [stem, ext] = splitName(file);
  const folder = segmentsFolder(dir);
  await mkdir(folder, { recursive: true });
  const to = join(folder, `${stem}.${rotationStamp(now)}${ext}`);
  await rename(from, to);
  return to;
}

/** The segments of `file` in `dir`, oldest first; of a stamp with both forms, the raw one. */
export async function listSegments(dir: string, file: string): Promise<Segment[]> {
  const [stem, ext] = splitName(file);
  const entries = await readdir(segmentsFolder(dir), { withFileTypes: true }).catch(() => []);
  const byStamp = new Map<string, Segment>();
  // regular files only: a link or FIFO named like a segment is not history
  for (const name of entries.filter((e) => e.isFile()).map((e) => e.name)) {
    if (!name.startsWith(`${stem}.`) || name.startsWith('.')) continue;
    const compressed = name.endsWith(`${ext}.gz`);
    if (!compressed && !name.endsWith(ext)) continue;
    const stamp = name.slice(stem.length + 1, name.length - ext.length - (compressed ? 3 : 0));
    if (!stamp || stamp.includes('.')) continue;
    const seen = byStamp.get(stamp);
    if (!seen || seen.compressed)
      byStamp.set(stamp, { path: join(segmentsFolder(dir), name), compressed, stamp });
  }
  return [...byStamp.values()].sort((a, b) => a.stamp.localeCompare(b.stamp));
}

/** The text of a segment (gunzipped when compressed); a link or FIFO swapped in after the listing reads as empty. */
export function readSegmentText(segment: Pick<Segment, 'path' | 'compressed'>): string {
  const opened = openRegularSync(segment.path);
  if (!opened) return '';
  try {
    const bytes = readFileSync(opened.fd);
    return (segment.compressed ? gunzipSync(bytes) : bytes).toString('utf8');
  } finally {
    closeSync(opened.fd);
  }
}

/** The target is made afresh (a fresh temp name): anything already there, a planted link too, is refused, never written through. */
const WRITE_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW | constants.O_NONBLOCK;

/**
 * Gzips `source` into `target` (made, written and fsynced; null: only
 * counted) as a stream: a 64 MiB segment is never held whole in memory, and
 * the gzip runs on libuv's pool, not on the caller's thread (the lead's
 * event loop). The compressed size.
 */
export async function gzipFile(source: string | FileHandle, target: string | null): Promise<number> {
  let size = 0;
  const handle = target === null ? null : await open(target, WRITE_FLAGS, 0o644);
  try {
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        size += chunk.length;
        if (!handle) return done();
        handle.write(chunk).then(() => done(), done);
      },
    });
    const input = typeof source === 'string' ? createReadStream(source) : source.createReadStream({ start: 0, autoClose: false });
    await pipeline(input, createGzip(), sink);
    await handle?.sync();
  } finally {
    await handle?.close();
  }
  return size;
}

/** What one compression pass did. */
export interface CompressReport {
  compressed: string[];
  bytesBefore: number;
  bytesAfter: number;
}

/**
 * Compresses every raw segment of `file` whose last write is older than
 * `quietMs` (a writer that still held the old file open has moved on by then).
 * `pause` runs between the steps (tests kill a process there).
 */
export async function compressQuietSegments(
  dir: string,
  file: string,
  options: { now?: number; quietMs?: number; dryRun?: boolean; pause?: (step: string) => Promise<void> } = {},
): Promise<CompressReport> {
  const now = options.now ?? Date.now();
  const report: CompressReport = { compressed: [], bytesBefore: 0, bytesAfter: 0 };
  for (const segment of await listSegments(dir, file)) {
    if (segment.compressed) continue;
    const opened = await openRegular(segment.path);
    if (!opened) continue;
    const { handle, stats: info } = opened;
    // Quiet since the rename too: an idle file's mtime is old, yet a writer may still hold it.
    const lastWrite = Math.max(info.mtimeMs, stampTime(segment.stamp) || now);
    if (now - lastWrite < (options.quietMs ?? 10_000)) {
      await handle.close();
      continue;
    }
    const temp = freshTempOf(segment.path); // hidden: never listed as a segment
    const gzBytes = await gzipFile(handle, options.dryRun ? null : temp).finally(() => handle.close());
    report.compressed.push(segment.path);
    report.bytesBefore += info.size;
    report.bytesAfter += gzBytes;
    if (options.dryRun) continue;
    await options.pause?.('written');
    await rename(temp, `${segment.path}.gz`);
    await options.pause?.('renamed');
    await unlink(segment.path);
  }
  return report;
}

/** Removes compressed segments of `file` rotated more than `keepMs` ago (by their file time). Returns their paths. */
export async function pruneSegments(
  dir: string,
  file: string,
  keepMs: number,
  options: { now?: number; dryRun?: boolean } = {},
): Promise<string[]> {
  const now = options.now ?? Date.now();
  const removed: string[] = [];
  for (const segment of await listSegments(dir, file)) {
    if (!segment.compressed) continue;
    const info = await stat(segment.path).catch(() => null);
    if (!info || now - info.mtimeMs <= keepMs) continue;
    removed.push(segment.path);
    if (!options.dryRun) await unlink(segment.path).catch(() => undefined);
  }
  return removed;
}
