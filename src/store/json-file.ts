import { writeFileAtomic, type AtomicWriteOptions } from './atomic.js';
import { textDepthProblem } from './json-bounds.js';
import { FILE_LIMITS, readTeamFile, readTeamFileSync, type TextRead } from './team-file.js';
import type { FileProblem } from './types.js';

/** What reading a JSON file found: nothing, text that is not JSON, or a value still to validate. */
export type JsonRead =
  { kind: 'missing' } | { kind: 'invalid'; problem: FileProblem } | { kind: 'ok'; value: unknown };

/**
 * Reads and parses `file`; `label` (the repo-relative name) is what problems
 * report. Only a regular file of at most `maxBytes` is read (see team-file.ts).
 */
export async function readJson(file: string, label: string, maxBytes: number = FILE_LIMITS.task): Promise<JsonRead> {
  const read = await readTeamFile(file, label, maxBytes);
  return read.kind === 'text' ? parseJson(read.text, label) : read;
}

/**
 * `readJson` without the thread pool: for reading thousands of small files
 * when nothing else is waiting (a cold start), where each async read's four
 * round trips cost more than the read itself.
 */
export function readJsonSync(file: string, label: string, maxBytes: number = FILE_LIMITS.task): JsonRead {
  const read = readTextSync(file, label, maxBytes);
  return read.kind === 'text' ? parseJson(read.text, label) : read;
}

/** The text of `file` as `readJsonSync` reads it, not parsed yet. */
export function readTextSync(file: string, label: string, maxBytes: number = FILE_LIMITS.task): TextRead {
  return readTeamFileSync(file, label, maxBytes);
}

/**
 * Parses `text`, refusing nesting deeper than `MAX_JSON_DEPTH` before anything
 * recurses over it. The parser's message quotes at most a few characters of
 * the text: only ever of a regular file inside the repository.
 */
export function parseJson(text: string, label: string): JsonRead {
  const deep = textDepthProblem(text);
  if (deep !== undefined) return { kind: 'invalid', problem: { file: label, message: `invalid JSON: ${deep}` } };
  try {
    return { kind: 'ok', value: JSON.parse(text) };
  } catch (err) {
    return { kind: 'invalid', problem: { file: label, message: `invalid JSON: ${(err as Error).message}` } };
  }
}

/** Pretty JSON with a final newline, written atomically (readers see old or new, never half). */
export async function writeJson(file: string, value: unknown, options?: AtomicWriteOptions): Promise<boolean> {
  return writeFileAtomic(file, jsonText(value), options);
}

/** The text `writeJson` writes. */
export const jsonText = (value: unknown): string => JSON.stringify(value, null, 2) + '\n';
