/**
 * Finished transcripts compressed: a session file unwritten for
 * `history.compressAfterMs` becomes `<session>.jsonl.gz` (gzip to a hidden
 * temp file, fsync, rename, then the plain file removed; its mtime is kept, as
 * readers order sessions by it). Readers take either form
 * (src/observe/transcript-files.ts); a crash between the rename and the unlink
 * leaves both, and the plain one wins until the next run redoes the step.
 *
 * Only regular files are touched: a link named `*.jsonl` (its target may be
 * anywhere) or a FIFO is left alone, and the file is opened once without
 * following links, so one swapped in after the listing is refused, not read.
 */
import { lstatSync, readdirSync } from 'node:fs';
import { rename, unlink, utimes, type FileHandle } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { transcriptAgents, transcriptsRoot } from '../observe/transcript-view.js';
import { freshTempOf } from '../store/atomic.js';
import { openRegular } from '../store/regular-file.js';
import { gzipFile } from '../store/segments.js';

/** How much of a session's end is read to find its last line (a longer last line: not taken as a result, not compressed). */
const TAIL_BYTES = 64 * 1024;

export interface TranscriptCompression {
  /** Session files compressed (repo-relative). */
  compressed: string[];
  bytesBefore: number;
  bytesAfter: number;
}

interface Quiet {
  file: string;
  size: number;
  mtime: Date;
}

/**
 * The plain session files last written before `before` (ms), except each
 * agent's newest (a runtime that lives on, the lead's, may still hold it open).
 */
function quietSessions(repoRoot: string, before: number): Quiet[] {
  const out: Quiet[] = [];
  for (const agent of transcriptAgents(repoRoot)) {
    const dir = join(transcriptsRoot(repoRoot), agent);
    const files: Quiet[] = [];
    for (const name of readdirSync(dir)) {
      if (!name.endsWith('.jsonl')) continue;
      const st = lstatSync(join(dir, name), { throwIfNoEntry: false });
      if (st?.isFile()) files.push({ file: join(dir, name), size: st.size, mtime: st.mtime });
    }
    files.sort((a, b) => a.mtime.getTime() - b.mtime.getTime());
    out.push(...files.slice(0, -1).filter((f) => f.mtime.getTime() < before));
  }
  return out;
}

/** The session opened as listed: a regular file not reached through a link, or null. */
async function openSession(s: Quiet): Promise<FileHandle | null> {
  const opened = await openRegular(s.file);
  if (!opened || opened.stats.size === s.size) return opened?.handle ?? null;
  await opened.handle.close();
  return null;
}

/** The last TAIL_BYTES of an open file of `size` bytes, as text. */
async function tailOf(handle: FileHandle, size: number): Promise<string> {
  const length = Math.min(size, TAIL_BYTES);
  const { buffer, bytesRead } = await handle.read(Buffer.alloc(length), 0, length, size - length);
  return buffer.subarray(0, bytesRead).toString('utf8');
}

/** A run that ended wrote its `result` line last; a session without one may be resumed or still running. */
function endsWithResult(text: string): boolean {
  const last = text.slice(text.trimEnd().lastIndexOf('\n') + 1);
  try {
    return (JSON.parse(last) as { type?: unknown }).type === 'result';
  } catch {
    return false;
  }
}

/** A finished session gzipped from its open descriptor to `temp` (none in a dry run); null when unfinished. */
async function compressOpen(handle: FileHandle, s: Quiet, temp: string | null): Promise<number | null> {
  if (!endsWithResult(await tailOf(handle, s.size))) return null;
  // streamed: a long session is never held whole in the lead's memory, and the gzip runs off its thread
  return gzipFile(handle, temp);
}

export async function compressTranscripts(
  repoRoot: string,
  afterMs: number,
  o: { now?: number; dryRun?: boolean } = {},
): Promise<TranscriptCompression> {
  const report: TranscriptCompression = { compressed: [], bytesBefore: 0, bytesAfter: 0 };
  for (const s of quietSessions(repoRoot, (o.now ?? Date.now()) - afterMs)) {
    const handle = await openSession(s);
    if (!handle) continue;
    const temp = o.dryRun ? null : freshTempOf(`${s.file}.gz`);
    const gzBytes = await compressOpen(handle, s, temp).finally(() => handle.close());
    if (gzBytes === null) continue;
    report.compressed.push(relative(repoRoot, s.file));
    report.bytesBefore += s.size;
    report.bytesAfter += gzBytes;
    if (temp === null) continue;
    await utimes(temp, s.mtime, s.mtime);
    await rename(temp, `${s.file}.gz`);
    await unlink(s.file);
  }
  return report;
}
