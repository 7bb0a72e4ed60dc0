/**
 * An out-of-process teammate's transcripts, written by the lead (docs/HOSTS.md):
 * each flush of a `TranscriptWriter` (a message, with the stream deltas before
 * it) is one `files.transcript` call naming the folder under the teammate's
 * own transcripts folder, the session's header and the lines. A flush larger
 * than `TRANSCRIPT_CHUNK` goes as several calls, in order, cut between code
 * points. The lead writes them with the same writer (src/lead/transcript-appends.ts).
 */
import { isAbsolute, relative, sep } from 'node:path';
import { TranscriptWriter, transcriptPath, type TranscriptOpener } from '../../agent/transcript.js';

/** The most characters of transcript text one call carries (the lead refuses more). */
export const TRANSCRIPT_CHUNK = 256 * 1024;

/** What one `files.transcript` call carries. */
export interface TranscriptAppend {
  /** The folder under the caller's transcripts folder: '' or 'subagents'. */
  folder: string;
  header: Parameters<TranscriptOpener>[1];
  text: string;
}

/** `text` in pieces of at most `max` characters, never splitting a surrogate pair. */
export function chunksOf(text: string, max = TRANSCRIPT_CHUNK): string[] {
  const out: string[] = [];
  for (let at = 0; at < text.length; ) {
    let end = Math.min(text.length, at + max);
    const code = text.charCodeAt(end - 1);
    if (end < text.length && end - at > 1 && code >= 0xd800 && code <= 0xdbff) end -= 1;
    out.push(text.slice(at, end));
    at = end;
  }
  return out;
}

/**
 * Opens transcripts under `root` (the teammate's transcripts folder as its
 * own process names it) whose lines `send` carries to the lead; a failed send
 * is the writer's `error`, as a failed write is.
 */
export function leadTranscripts(root: string, send: (append: TranscriptAppend) => Promise<unknown>): TranscriptOpener {
  return (dir, header) => {
    const folder = relative(root, dir).split(sep).join('/');
    if (folder.startsWith('..') || isAbsolute(folder)) return { ok: false, error: `transcript folder ${dir} is not under ${root}` };
    const path = transcriptPath(dir, header.session_id);
    if (!path.ok) return path;
    const writer = TranscriptWriter.sending(`${path.value} (written by the lead)`, (text) => {
      for (const piece of chunksOf(text))
        send({ folder, header, text: piece }).catch((error: Error) => (writer.error ??= `transcript ${writer.path}: ${error.message}`));
    });
    return { ok: true, value: writer };
  };
}
