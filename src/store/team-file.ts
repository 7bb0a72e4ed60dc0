/**
 * The one way a team file (`.tasks/`, `.mailboxes/`, `.cron/`, the config) is
 * read. Anyone who can write to the repository can put anything at a team
 * file's path: a symbolic link to `/etc/shadow` or `/dev/zero`, a FIFO that
 * blocks a reader forever, a file of gigabytes. So:
 *  - `lstat` first: a symbolic link, FIFO, socket, device or folder is refused
 *    without being opened, and its content is never read (nor quoted);
 *  - open with `O_NOFOLLOW | O_NONBLOCK` (a link or FIFO swapped in between
 *    the lstat and the open neither is followed nor blocks), then `fstat` the
 *    open file to check again that it is regular and within the size cap;
 *  - read at most the cap plus one byte (a file growing meanwhile is refused).
 */
import { closeSync, fstatSync, lstatSync, openSync, readlinkSync, readSync, realpathSync, type Stats } from 'node:fs';
import { open } from 'node:fs/promises';
import { dirname, isAbsolute, relative, resolve } from 'node:path';
import { NO_FOLLOW_READ } from './regular-file.js';
import type { FileProblem } from './types.js';

/** Size caps (bytes) of the files teamd reads: far above anything teamd writes, far below harm. */
export const FILE_LIMITS = {
  /** A task (description ≤ 100,000 characters, notes, metadata) or a cron job. */
  task: 1024 * 1024,
  cron: 1024 * 1024,
  /** An inbox holds many messages of up to 1,000,000 characters each. */
  inbox: 64 * 1024 * 1024,
  config: 1024 * 1024,
} as const;

/** What reading a team file found: its text, nothing, or why it was refused (never its content). */
export type TextRead = { kind: 'text'; text: string } | { kind: 'missing' } | { kind: 'invalid'; problem: FileProblem };

const OPEN_FLAGS = NO_FOLLOW_READ;

const refused = (file: string, message: string): TextRead => ({ kind: 'invalid', problem: { file, message } });

/** What kind of non-regular thing `s` is, in words. */
function kindOf(s: Stats): string {
  if (s.isDirectory()) return 'a folder';
  if (s.isFIFO()) return 'a FIFO (named pipe)';
  if (s.isSocket()) return 'a socket';
  if (s.isCharacterDevice() || s.isBlockDevice()) return 'a device';
  return 'not a regular file';
}

/**
 * Why a symbolic link is refused: where it points (the link's own text, never
 * the target's content), and whether that is outside the repository (the
 * repository is `file` without its repo-relative `label`).
 */
export function describeLink(file: string, label: string, rule = 'team files must be regular files, not links'): string {
  let target: string;
  try {
    target = readlinkSync(file);
  } catch {
    return `is a symbolic link; ${rule}`;
  }
  const shown = JSON.stringify(target.length > 200 ? `${target.slice(0, 200)}…` : target);
  const root = file.endsWith(label) ? file.slice(0, file.length - label.length) : dirname(file);
  let real: string | null = null;
  try {
    real = realpathSync(file);
  } catch {
    // dangling
  }
  const where =
    real === null
      ? 'a dangling symbolic link'
      : isInside(realOr(root), real)
        ? 'a symbolic link'
        : 'a symbolic link to outside the repository';
  return `is ${where} (to ${shown}); ${rule}; not read`;
}

function realOr(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/** The refusal of what `lstat` found at `file`, or null when it is a regular file within `maxBytes`. */
function refusalOf(s: Stats, file: string, label: string, maxBytes: number): TextRead | null {
  if (s.isSymbolicLink()) return refused(label, describeLink(file, label));
  if (!s.isFile()) return refused(label, `is ${kindOf(s)}, not a regular file; not read`);
  if (s.size > maxBytes) return refused(label, tooLarge(s.size, maxBytes));
  return null;
}

const tooLarge = (size: number, max: number): string =>
  `is ${size > max ? `${size} bytes` : 'growing'}, over the limit of ${max} bytes; not read`;

function errorRead(err: unknown, file: string, label: string): TextRead {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return { kind: 'missing' };
  // O_NOFOLLOW on a link swapped in after the lstat.
  if (code === 'ELOOP') return refused(label, describeLink(file, label));
  return refused(label, `unreadable: ${code ?? String(err)}`);
}

/** Reads `file` (reported as `label`) on this thread, refusing anything but a regular file of at most `maxBytes`. */
export function readTeamFileSync(file: string, label: string, maxBytes: number): TextRead {
  let fd: number | undefined;
  try {
    const early = refusalOf(lstatSync(file), file, label, maxBytes);
    if (early) return early;
    fd = openSync(file, OPEN_FLAGS);
    const late = refusalOf(fstatSync(fd), file, label, maxBytes);
    if (late) return late;
    return textOf(readAllSync(fd, maxBytes), label, maxBytes);
  } catch (err) {
    return errorRead(err, file, label);
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** `readTeamFileSync` on the thread pool. */
export async function readTeamFile(file: string, label: string, maxBytes: number): Promise<TextRead> {
  let handle: Awaited<ReturnType<typeof open>> | undefined;
  try {
    const early = refusalOf(lstatSync(file), file, label, maxBytes);
    if (early) return early;
    handle = await open(file, OPEN_FLAGS);
    const late = refusalOf(await handle.stat(), file, label, maxBytes);
    if (late) return late;
    const chunks: Buffer[] = [];
    let total = 0;
    for (let n = -1; n !== 0 && total <= maxBytes; total += n) {
      const chunk = Buffer.allocUnsafe(chunkSize(total, maxBytes));
      n = (await handle.read(chunk, 0, chunk.length, null)).bytesRead;
      chunks.push(chunk.subarray(0, n));
    }
    return textOf(Buffer.concat(chunks, total), label, maxBytes);
  } catch (err) {
    return errorRead(err, file, label);
  } finally {
    await handle?.close();
  }
}

const chunkSize = (total: number, maxBytes: number): number => Math.min(256 * 1024, maxBytes + 1 - total);

function readAllSync(fd: number, maxBytes: number): Buffer {
  const chunks: Buffer[] = [];
  let total = 0;
  for (let n = -1; n !== 0 && total <= maxBytes; total += n) {
    const chunk = Buffer.allocUnsafe(chunkSize(total, maxBytes));
    n = readSync(fd, chunk, 0, chunk.length, null);
    chunks.push(chunk.subarray(0, n));
  }
  return Buffer.concat(chunks, total);
}

function textOf(bytes: Buffer, label: string, maxBytes: number): TextRead {
  if (bytes.length > maxBytes) return refused(label, tooLarge(bytes.length, maxBytes));
  return { kind: 'text', text: bytes.toString('utf8') };
}

/** True when `path` lies inside `root` (both resolved; no link is followed). */
export const isInside = (root: string, path: string): boolean => {
  const rel = relative(resolve(root), resolve(path));
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
};
