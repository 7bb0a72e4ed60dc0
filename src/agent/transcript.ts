/**
 * Conversations saved as JSONL, one file per session: a version header line,
 * then every event as one line. The conversation is the fold of the `user` and
 * `assistant` events (restarted from the `messages` of each `system/compact`
 * event), so `loadTranscript` rebuilds exactly what the model saw.
 *
 * A session name may come from a user: it is sanitised to an id, and the file
 * is opened with O_NOFOLLOW, so no name (`../x`, `/etc/passwd`, a planted
 * symlink) can make a read or write land outside the transcripts folder.
 */
import { closeSync, constants, fstatSync, writeSync } from 'node:fs';
import { lstat, open, readFile, rename, unlink, utimes } from 'node:fs/promises';
import { gunzipSync } from 'node:zlib';
import { dirname, resolve } from 'node:path';
import { z } from 'zod';
import { ConversationMessageSchema, type ConversationMessage } from '../model/types.js';
import { freshTempOf } from '../store/atomic.js';
import { openSyncMakingFolder } from '../store/open-sync.js';
import { IdSchema, type Outcome } from '../store/types.js';
import { foldMessages } from './history.js';
import type { AgentEvent } from './types.js';

export const TRANSCRIPT_VERSION = 1;

export const TranscriptHeaderSchema = z.object({
  type: z.literal('header'),
  version: z.literal(TRANSCRIPT_VERSION),
  session_id: z.string(),
  agent: z.string(),
  model: z.string(),
  cwd: z.string(),
  created: z.string(),
});
export type TranscriptHeader = z.infer<typeof TranscriptHeaderSchema>;

const MessageLineSchema = z.object({
  type: z.enum(['user', 'assistant']),
  message: ConversationMessageSchema,
});

const CompactLineSchema = z.object({
  type: z.literal('system'),
  subtype: z.literal('compact'),
  messages: z.array(ConversationMessageSchema),
});

/** Makes any name a safe id: other characters become `_`, no `..`, starts with a letter or digit, ≤ 64 chars. */
export function sanitizeSessionName(name: string): Outcome<string> {
  const cleaned = name
    .replace(/[^A-Za-z0-9._-]/g, '_')
    .replace(/\.{2,}/g, '_')
    .replace(/^[^A-Za-z0-9]+/, '')
    .slice(0, 64);
  const parsed = IdSchema.safeParse(cleaned);
  if (parsed.success) return { ok: true, value: parsed.data };
  return {
    ok: false,
    error: `session name ${JSON.stringify(name)} has no usable characters (letters, digits, . _ -)`,
  };
}

/** `<dir>/<sanitised>.jsonl`, checked to sit directly in `dir`. */
export function transcriptPath(dir: string, sessionId: string): Outcome<string> {
  const name = sanitizeSessionName(sessionId);
  if (!name.ok) return name;
  const file = resolve(dir, `${name.value}.jsonl`);
  if (dirname(file) !== resolve(dir)) {
    return { ok: false, error: `session ${sessionId} resolves outside ${dir}` };
  }
  return { ok: true, value: file };
}

/** What opens a session's transcript: `TranscriptWriter.open`, or a writer whose lines go elsewhere. */
export type TranscriptOpener = (dir: string, header: Omit<TranscriptHeader, 'type' | 'version'>) => Outcome<TranscriptWriter>;

const WRITE_FLAGS = constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW;

/**
 * Appends events to one transcript; a failed write stops writing but never
 * stops the run. Stream deltas wait in memory and go out with the next other
 * event (the message they make up follows them anyway), so a turn costs a
 * write per message, not one per fragment of text.
 */
export class TranscriptWriter {
  private fd: number | null;
  private pending = '';
  error: string | null = null;

  private constructor(
    fd: number,
    readonly path: string,
    private readonly out: (fd: number, text: string) => void = (f, text) => void writeSync(f, text),
  ) {
    this.fd = fd;
  }

  /**
   * A writer whose lines go to `send` instead of a file (an out-of-process
   * teammate's: the lead writes them, hosts/transcript-client.ts); `label`
   * names it in errors. A throwing `send` stops it like a failed write.
   */
  static sending(label: string, send: (text: string) => void): TranscriptWriter {
    return new TranscriptWriter(-1, label, (_fd, text) => send(text));
  }

  /** Opens (creating it with a header when new) the transcript of `header.session_id` in `dir`. */
  static open(dir: string, header: Omit<TranscriptHeader, 'type' | 'version'>): Outcome<TranscriptWriter> {
    const path = transcriptPath(dir, header.session_id);
    if (!path.ok) return path;
    try {
      const fd = openSyncMakingFolder(path.value, WRITE_FLAGS, 0o600);
      const writer = new TranscriptWriter(fd, path.value);
      if (fstatSync(fd).size === 0) writer.line({ type: 'header', version: TRANSCRIPT_VERSION, ...header });
      return { ok: true, value: writer };
    } catch (error) {
      return { ok: false, error: `cannot open transcript ${path.value}: ${(error as Error).message}` };
    }
  }

  /**
   * The conversation a forked session starts from, as one line (the shape
   * of a compaction's: loading restarts from it), naming the session forked.
   */
  seed(messages: readonly ConversationMessage[], forkedFrom: string): void {
    this.line({ type: 'system', subtype: 'compact', forked_from: forkedFrom, messages });
  }

  /** Appends lines another writer made (the lead's side of `sending`): whole JSON lines, ending with a newline. */
  appendLines(text: string): void {
    if (text.length > 0) this.line(null, text);
  }

  write(event: AgentEvent): void {
    if (event.type === 'stream_event') {
      if (this.fd !== null) this.pending += JSON.stringify(event) + '\n';
    } else this.line(event);
  }

  close(): void {
    if (this.pending) this.line(null);
    if (this.fd !== null && this.fd >= 0) closeSync(this.fd);
    this.fd = null;
  }

  /** Writes what waits and then `value` (nothing more when null). */
  private line(value: unknown, raw = ''): void {
    if (this.fd === null) return;
    const text = this.pending + raw + (value === null ? '' : JSON.stringify(value) + '\n');
    this.pending = '';
    try {
      this.out(this.fd, text);
    } catch (error) {
      this.error = `transcript ${this.path}: ${(error as Error).message}`;
      this.close();
    }
  }
}

export interface LoadedTranscript {
  header: TranscriptHeader;
  messages: ConversationMessage[];
  path: string;
}

async function readNoFollow(file: string): Promise<string> {
  const handle = await open(file, constants.O_RDONLY | constants.O_NOFOLLOW);
  try {
    return await handle.readFile('utf8');
  } finally {
    await handle.close();
  }
}

function parseLines(file: string, text: string): Outcome<LoadedTranscript> {
  const lines = text.split('\n').filter((l) => l.trim().length > 0);
  const values: unknown[] = [];
  for (const [i, line] of lines.entries()) {
    try {
      values.push(JSON.parse(line));
    } catch {
      // a torn last line is what a crash mid-write leaves; anything else is damage
      if (i === lines.length - 1) break;
      return { ok: false, error: `${file}:${i + 1}: not JSON` };
    }
  }
  const header = TranscriptHeaderSchema.safeParse(values[0]);
  if (!header.success) {
    return { ok: false, error: `${file}:1: not a version ${TRANSCRIPT_VERSION} transcript header` };
  }
  let messages: ConversationMessage[] = [];
  for (const value of values) {
    const compacted = CompactLineSchema.safeParse(value);
    if (compacted.success) messages = [...compacted.data.messages]; // a compaction restarts the fold
    const line = MessageLineSchema.safeParse(value);
    if (line.success) messages.push(line.data.message);
  }
  return { ok: true, value: { header: header.data, messages: foldMessages(messages), path: file } };
}

const RESTORE_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;

/**
 * A session `teamd gc` compressed (`<session>.jsonl.gz`) goes back to its plain
 * file before it is resumed, as the resumed run appends to it; its mtime is kept.
 */
async function restoreCompressed(file: string): Promise<void> {
  if ((await lstat(file).catch(() => null)) !== null) return;
  const gz = `${file}.gz`;
  const info = await lstat(gz).catch(() => null);
  if (!info?.isFile()) return;
  const temp = freshTempOf(file); // made afresh: never written through a link planted at a guessable name
  const handle = await open(temp, RESTORE_FLAGS, 0o644);
  await handle.writeFile(gunzipSync(await readFile(gz))).finally(() => handle.close());
  await utimes(temp, info.atime, info.mtime);
  await rename(temp, file);
  await unlink(gz);
}

/** Rebuilds a saved conversation. A missing, unreadable or foreign file is an error result, never a throw. */
export async function loadTranscript(dir: string, sessionId: string): Promise<Outcome<LoadedTranscript>> {
  const path = transcriptPath(dir, sessionId);
  if (!path.ok) return path;
  try {
    await restoreCompressed(path.value);
    return parseLines(path.value, await readNoFollow(path.value));
  } catch (error) {
    return { ok: false, error: `cannot read transcript ${path.value}: ${(error as Error).message}` };
  }
}
