/**
 * Finished transcripts compressed: a session file unwritten for
 * `history.compressAfterMs` becomes `<session>.jsonl.gz` (gzip to a hidden
 * temp file, fsync, rename, then the plain file removed; its mtime is kept, as
 * readers order sessions by it). Readers take either form
 * (src/observe/transcript-files.ts); a crash between the rename and the unlink
 * leaves both, and the plain one wins until the next run redoes the step.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { rename, unlink, utimes } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { gzipSync } from 'node:zlib';
import { transcriptAgents, transcriptsRoot } from '../observe/transcript-view.js';
import { writeDurably } from '../store/segments.js';

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
    const text = readFileSync(s.file);
    if (!endsWithResult(text.toString('utf8'))) continue;
    const gz = gzipSync(text);
    report.compressed.push(relative(repoRoot, s.file));
    report.bytesBefore += s.size;
    report.bytesAfter += gz.length;
    if (o.dryRun) continue;
    const temp = `${s.file}.gz.tmp`;
    writeDurably(temp, gz);
    await utimes(temp, s.mtime, s.mtime);
    await rename(temp, `${s.file}.gz`);
    await unlink(s.file);
  }
  return report;
}
