import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { writeFileAtomic, type AtomicWriteOptions } from './atomic.js';
import type { FileProblem } from './types.js';

/** What reading a JSON file found: nothing, text that is not JSON, or a value still to validate. */
export type JsonRead =
  { kind: 'missing' } | { kind: 'invalid'; problem: FileProblem } | { kind: 'ok'; value: unknown };

/** Reads and parses `file`; `label` (the repo-relative name) is what problems report. */
export async function readJson(file: string, label: string): Promise<JsonRead> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    return unreadable(err, label);
  }
  return parseJson(text, label);
}

/**
 * `readJson` without the thread pool: for reading thousands of small files
 * when nothing else is waiting (a cold start), where each async read's four
 * round trips cost more than the read itself.
 */
export function readJsonSync(file: string, label: string): JsonRead {
  const read = readTextSync(file, label);
  return read.kind === 'text' ? parseJson(read.text, label) : read;
}

/** The text of `file` as `readJsonSync` reads it, not parsed yet. */
export function readTextSync(
  file: string,
  label: string,
): { kind: 'text'; text: string } | Exclude<JsonRead, { kind: 'ok' }> {
  try {
    return { kind: 'text', text: readFileSync(file, 'utf8') };
  } catch (err) {
    return unreadable(err, label) as Exclude<JsonRead, { kind: 'ok' }>;
  }
}

function unreadable(err: unknown, label: string): JsonRead {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return { kind: 'missing' };
  return { kind: 'invalid', problem: { file: label, message: `unreadable: ${code ?? String(err)}` } };
}

export function parseJson(text: string, label: string): JsonRead {
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
