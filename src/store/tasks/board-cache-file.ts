/**
 * The file of board-cache.ts, sealed: a first line with the format and the
 * SHA-256 of the rest (the entries as JSON). A file whose seal matches is
 * what a teamd run wrote, after checking every task in it against the schema
 * when it first read the task file, so its entries are taken without a second
 * check (at 10,000 cached tasks that check was ~140 ms of `teamd status`, and
 * most of its garbage; issue 24). Anything else — a broken, truncated, edited
 * or older file — is ignored whole: soft state, the task files are read again.
 * The seal covers the task schema's fields too, so a teamd whose schema
 * changed does not take an older run's entries (bump FORMAT for a change of a
 * field's type).
 */
import { createHash } from 'node:crypto';
import { TaskSchema, type Task } from '../types.js';
import { readTeamFileSync } from '../team-file.js';

export type Entry = { stamp: string; task: Task };

const FORMAT = 'teamd-board-cache/2';
const SCHEMA_FIELDS = Object.keys(TaskSchema.shape).join(',');

const sealOf = (body: string): string =>
  createHash('sha256').update(`${FORMAT}\n${SCHEMA_FIELDS}\n`).update(body).digest('hex');

/** The file's text for these entries. */
export function sealedText(entries: Iterable<[string, Entry]>): string {
  const body = JSON.stringify(Object.fromEntries(entries));
  return `${JSON.stringify({ format: FORMAT, seal: sealOf(body) })}\n${body}`;
}

const isEntry = (value: unknown): value is Entry =>
  typeof value === 'object' && value !== null &&
  typeof (value as Entry).stamp === 'string' && typeof (value as Entry).task?.id === 'string';

/** The entries of a sealed cache file; none when it is missing, not sealed or not what its seal says. */
export function readSealed(file: string, maxBytes: number): Map<string, Entry> {
  const read = readTeamFileSync(file, 'board cache', maxBytes);
  if (read.kind !== 'text') return new Map();
  const cut = read.text.indexOf('\n');
  const body = read.text.slice(cut + 1);
  if (cut < 0 || read.text.slice(0, cut) !== JSON.stringify({ format: FORMAT, seal: sealOf(body) })) return new Map();
  try {
    const value: unknown = JSON.parse(body);
    if (typeof value !== 'object' || value === null) return new Map();
    return new Map(Object.entries(value).filter((e): e is [string, Entry] => isEntry(e[1])));
  } catch {
    return new Map();
  }
}
