/**
 * The one way a file under `.team/state/` (requests, teammate statuses, the
 * merge queue, process groups, the pause, lead.pid, reported stalls) and a
 * lock's owner file are read. teamd writes them, but anyone who can write to
 * the repository (a teammate's bash) can swap one for a FIFO, a link to
 * `/dev/zero` or to a secret, or JSON nested 5,000 deep: each is refused
 * through the safe reader (team-file.ts: regular files only, a size cap) and
 * the JSON depth bound, and the refusal is recorded (never the content).
 */
import type { z } from 'zod';
import { parseJson } from './json-file.js';
import { problemsFromZod } from './problems.js';
import { readTeamFile, readTeamFileSync, type TextRead } from './team-file.js';
import type { FileProblem } from './types.js';

/** Size caps (bytes) of state files: far above what teamd writes. */
export const STATE_LIMITS = {
  /** A request, a status, the pause, lead.pid, process groups, stalls, a lock's owner. */
  small: 1024 * 1024,
  /** The merge queue keeps every entry of a long run. */
  mergeQueue: 16 * 1024 * 1024,
  /** The event log and the daemon log (appended to all run long). */
  log: 256 * 1024 * 1024,
} as const;

/** What reading a state file found. */
export type StateRead<T> =
  { kind: 'missing' } | { kind: 'invalid'; problem: FileProblem } | { kind: 'ok'; value: T };

const MAX_RECORDED = 100;
const recorded = new Map<string, FileProblem>();

/** State files refused by this process (one per file, latest message, at most 100): for status and logs. */
export const stateProblems = (): FileProblem[] => [...recorded.values()];

/** `.team/state/x.json` (the path from `.team/` or `.tasks/` on), or the path itself. */
export function stateLabel(file: string): string {
  const at = Math.max(
    file.lastIndexOf('/.team/'),
    file.lastIndexOf('/.tasks/'),
    file.lastIndexOf('/.mailboxes/'),
  );
  return at >= 0 ? file.slice(at + 1) : file;
}

function record<T>(read: StateRead<T>): StateRead<T> {
  if (read.kind !== 'invalid') return read;
  const key = read.problem.file;
  if (!recorded.has(key) && recorded.size >= MAX_RECORDED) recorded.delete(recorded.keys().next().value!);
  recorded.set(key, read.problem);
  return read;
}

function judged<T>(read: TextRead, label: string, schema: z.ZodType<T>): StateRead<T> {
  if (read.kind !== 'text') return record(read);
  const json = parseJson(read.text, label);
  if (json.kind !== 'ok') return record(json);
  const parsed = schema.safeParse(json.value);
  if (parsed.success) return { kind: 'ok', value: parsed.data };
  const first = problemsFromZod(label, parsed.error)[0]!;
  return record({ kind: 'invalid', problem: first });
}

/** Reads and validates a state file on this thread. */
export function readStateSync<T>(
  file: string,
  schema: z.ZodType<T>,
  maxBytes: number = STATE_LIMITS.small,
): StateRead<T> {
  const label = stateLabel(file);
  return judged(readTeamFileSync(file, label, maxBytes), label, schema);
}

/** `readStateSync` on the thread pool. */
export async function readState<T>(
  file: string,
  schema: z.ZodType<T>,
  maxBytes: number = STATE_LIMITS.small,
): Promise<StateRead<T>> {
  const label = stateLabel(file);
  return judged(await readTeamFile(file, label, maxBytes), label, schema);
}

/** The text of a log under `.team/` ('' when missing or refused, the refusal recorded). */
export function readStateTextSync(file: string, maxBytes: number = STATE_LIMITS.log): string {
  const read = readTeamFileSync(file, stateLabel(file), maxBytes);
  if (read.kind === 'invalid') record(read);
  return read.kind === 'text' ? read.text : '';
}

/** The value read, or `fallback` when the file is missing or was refused (the refusal is recorded). */
export const stateOr = <T>(read: StateRead<T>, fallback: T): T =>
  read.kind === 'ok' ? read.value : fallback;
