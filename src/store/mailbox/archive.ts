import { closeSync, constants, fstatSync, fsyncSync, lstatSync, readSync, renameSync, writeSync } from 'node:fs';
import { mkdir, open, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import { runsInline } from '../inline-io.js';
import { openSyncMakingFolder } from '../open-sync.js';
import { problemsFromZod } from '../problems.js';
import { readTeamFile } from '../team-file.js';
import type { FileProblem, Message } from '../types.js';
import { MessageSchema } from '../types.js';
import { withoutDelivery } from './inbox-file.js';

/**
 * Appends delivered messages, one JSON line each, in one write to a file
 * opened for appending, and fsyncs (unless not `durable`: a routine report,
 * history only). No lock: on a local file system one O_APPEND write is never
 * interleaved with another. A crash can leave a torn last line; the next
 * append starts on a fresh line so only that fragment is lost to parsing,
 * never a later message (two appenders that both saw the fragment leave a
 * blank line, which readers skip).
 */
export async function appendArchive(file: string, messages: readonly Message[], durable = true): Promise<void> {
  if (!messages.length) return;
  moveAsideIfNotRegular(file);
  const lines = messages.map((m) => JSON.stringify(withoutDelivery(m))).join('\n');
  if (runsInline(durable)) appendInline(file, lines, durable);
  else await appendPooled(file, lines);
}

/** `a+`, but never through a link and never blocking on a FIFO. */
const APPEND_FLAGS = constants.O_RDWR | constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW | constants.O_NONBLOCK;

/**
 * Anyone who can write the repository can plant a link at an archive's path
 * (appends would land in its target: any file of the user's), a FIFO or a
 * folder. Such a thing is moved aside to `<file>.refused-<ms>` (the rename
 * moves the link, not its target) and a fresh archive begun, so delivery goes
 * on. One swapped in after this check is not followed either: the open fails.
 */
function moveAsideIfNotRegular(file: string): void {
  const st = lstatSync(file, { throwIfNoEntry: false });
  if (st && !st.isFile()) renameSync(file, `${file}.refused-${Date.now()}`);
}

function assertRegular(isFile: boolean, file: string): void {
  if (!isFile) throw new Error(`${file}: not a regular file`);
}

function appendInline(file: string, lines: string, durable: boolean): void {
  const fd = openSyncMakingFolder(file, APPEND_FLAGS, 0o644);
  try {
    const st = fstatSync(fd);
    assertRegular(st.isFile(), file);
    const { size } = st;
    const last = Buffer.alloc(1);
    const lead = size === 0 || (readSync(fd, last, 0, 1, size - 1) === 1 && last[0] === 0x0a) ? '' : '\n';
    writeSync(fd, `${lead}${lines}\n`);
    if (durable) fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

async function appendPooled(file: string, lines: string): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  const handle = await open(file, APPEND_FLAGS, 0o644);
  try {
    assertRegular((await handle.stat()).isFile(), file);
    const lead = (await endsWithNewline(handle)) ? '' : '\n';
    await handle.appendFile(`${lead}${lines}\n`);
    await handle.sync();
  } finally {
    await handle.close();
  }
}

async function endsWithNewline(handle: FileHandle): Promise<boolean> {
  const { size } = await handle.stat();
  if (size === 0) return true;
  const last = Buffer.alloc(1);
  await handle.read(last, 0, 1, size - 1);
  return last[0] === 0x0a;
}

const ARCHIVE_READ_LIMIT = 1024 ** 3;

/**
 * Every archived message, deduplicated by id (a crash between archiving and
 * clearing the inbox archives a batch twice), plus the lines that do not parse.
 */
export async function readArchive(
  file: string,
  label: string,
): Promise<{ messages: Message[]; problems: FileProblem[] }> {
  // history may be long: the cap is far above any archive, far below harm; a link or FIFO is refused unread
  const read = await readTeamFile(file, label, ARCHIVE_READ_LIMIT);
  const text = read.kind === 'text' ? read.text : '';
  const seen = new Set<string>();
  const messages: Message[] = [];
  const problems: FileProblem[] = [];
  text.split('\n').forEach((line, i) => {
    if (!line.trim()) return;
    const parsed = parseLine(line, `${label}:${i + 1}`);
    if (!parsed.ok) problems.push(...parsed.problems);
    else if (!seen.has(parsed.message.id)) {
      seen.add(parsed.message.id);
      messages.push(parsed.message);
    }
  });
  return { messages, problems };
}

function parseLine(
  line: string,
  label: string,
): { ok: true; message: Message } | { ok: false; problems: FileProblem[] } {
  let raw: unknown;
  try {
    raw = JSON.parse(line);
  } catch (err) {
    return { ok: false, problems: [{ file: label, message: `invalid JSON: ${(err as Error).message}` }] };
  }
  const parsed = MessageSchema.safeParse(raw);
  return parsed.success
    ? { ok: true, message: parsed.data }
    : { ok: false, problems: problemsFromZod(label, parsed.error) };
}

