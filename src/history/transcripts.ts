/**
 * Finished transcripts compressed: a session file unwritten for
 * `history.compressAfterMs` becomes `<session>.jsonl.gz` (gzip to a hidden
 * temp file, fsync, rename, then the plain file removed; its mtime is kept, as
 * readers order sessions by it). Readers take either form
 * (src/observe/transcript-files.ts); a crash between the rename and the unlink
 * leaves both, and the plain one wins until the next run redoes the step.
 */
import { closeSync, openSync, readdirSync, readSync, statSync } from 'node:fs';
import { rename, unlink, utimes } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { transcriptAgents, transcriptsRoot } from '../observe/transcript-view.js';
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
      const st = statSync(join(dir, name), { throwIfNoEntry: false });
      if (st?.isFile()) files.push({ file: join(dir, name), size: st.size, mtime: st.mtime });
    }
    files.sort((a, b) => a.mtime.getTime() - b.mtime.getTime());
    out.push(...files.slice(0, -1).filter((f) => f.mtime.getTime() < before));
  }
  return out;
}

/** The last TAIL_BYTES of a file of `size` bytes, as text. */
function tailOf(file: string, size: number): string {
  const fd = openSync(file, 'r');
  try {
    const length = Math.min(size, TAIL_BYTES);
    const buffer = Buffer.alloc(length);
    const read = readSync(fd, buffer, 0, length, size - length);
    return buffer.subarray(0, read).toString('utf8');
  } finally {
    closeSync(fd);
  }
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

export async function compressTranscripts(
  repoRoot: string,
  afterMs: number,
  o: { now?: number; dryRun?: boolean } = {},
): Promise<TranscriptCompression> {
  const report: TranscriptCompression = { compressed: [], bytesBefore: 0, bytesAfter: 0 };
  for (const s of quietSessions(repoRoot, (o.now ?? Date.now()) - afterMs)) {
    if (!endsWithResult(tailOf(s.file, s.size))) continue;
    const temp = `${s.file}.gz.tmp`;
    // streamed: a long session is never held whole in the lead's memory, and the gzip runs off its thread
    const gzBytes = await gzipFile(s.file, o.dryRun ? null : temp);
    report.compressed.push(relative(repoRoot, s.file));
    report.bytesBefore += s.size;
    report.bytesAfter += gzBytes;
    if (o.dryRun) continue;
    await utimes(temp, s.mtime, s.mtime);
    await rename(temp, `${s.file}.gz`);
    await unlink(s.file);
  }
  return report;
}
