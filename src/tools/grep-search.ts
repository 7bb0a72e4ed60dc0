/**
 * The search behind `grep`, as one query and one result shape with two
 * engines: ripgrep when it is on PATH (fast, honours .gitignore), otherwise
 * an in-process scan (JavaScript regex syntax; skips .git and node_modules).
 */
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Outcome } from '../store/types.js';
import { findFiles } from './file-walk.js';

export interface GrepQuery {
  pattern: string;
  caseInsensitive: boolean;
  /** Let `.` match newlines and a match span lines. */
  multiline: boolean;
  /** A folder or one file (absolute, inside root). */
  base: string;
  root: string;
  /** Only files matching this glob (no slash: at any depth). */
  glob?: string;
  before: number;
  after: number;
  /** Stop after this many files with matches (a cap, not exact). */
  maxFiles: number;
  signal: AbortSignal;
}

export interface GrepLine {
  number: number;
  text: string;
  /** False for a context line. */
  match: boolean;
}

export interface FileMatches {
  absPath: string;
  /** Matching lines (and context lines when asked). */
  lines: GrepLine[];
  /** How many lines matched. */
  count: number;
}

export type GrepEngine = (query: GrepQuery) => Promise<Outcome<FileMatches[]>>;

const MAX_FILE_BYTES = 5 * 1024 * 1024;

export async function searchInProcess(query: GrepQuery): Promise<Outcome<FileMatches[]>> {
  const regex = compile(query);
  if (!regex.ok) return regex;
  const files = await filesToSearch(query);
  const results: FileMatches[] = [];
  for (const file of files.sort()) {
    if (query.signal.aborted || results.length >= query.maxFiles) break;
    const text = await readSearchable(file);
    const found = text === null ? null : matchText(text, regex.value, query);
    if (found !== null) results.push({ absPath: file, ...found });
  }
  return { ok: true, value: results };
}

function compile(query: GrepQuery): Outcome<RegExp> {
  try {
    const flags = `g${query.caseInsensitive ? 'i' : ''}${query.multiline ? 'ms' : ''}`;
    return { ok: true, value: new RegExp(query.pattern, flags) };
  } catch (error) {
    return { ok: false, error: `the pattern is not a valid regular expression: ${(error as Error).message}` };
  }
}

async function filesToSearch(query: GrepQuery): Promise<string[]> {
  const info = await stat(query.base);
  if (info.isFile()) return [query.base];
  const glob = query.glob === undefined ? '**/*' : query.glob.includes('/') ? query.glob : `**/${query.glob}`;
  return (await findFiles(query.root, query.base, [glob], query.signal)).map((f) => f.absPath);
}

async function readSearchable(file: string): Promise<string | null> {
  const info = await stat(file).catch(() => null);
  if (info === null || !info.isFile() || info.size > MAX_FILE_BYTES) return null; // a FIFO would block the read
  const bytes = await readFile(file).catch(() => null);
  if (bytes === null || bytes.subarray(0, 8000).includes(0)) return null; // binary
  return bytes.toString('utf8');
}

function matchText(
  text: string,
  regex: RegExp,
  query: GrepQuery,
): { lines: GrepLine[]; count: number } | null {
  const lines = text.split(/\r?\n/);
  if (lines.at(-1) === '') lines.pop(); // the final newline ends the last line
  const matched = query.multiline
    ? multilineMatches(text, regex).slice(0, lines.length)
    : lines.map((line) => testLine(regex, line));
  const numbers = matched.flatMap((m, i) => (m ? [i] : []));
  if (numbers.length === 0) return null;
  return { lines: withContext(lines, numbers, query.before, query.after), count: numbers.length };
}

function testLine(regex: RegExp, line: string): boolean {
  regex.lastIndex = 0;
  return regex.test(line);
}

/** Lines touched by any match of a pattern that may span lines. */
function multilineMatches(text: string, regex: RegExp): boolean[] {
  const lineOf = (offset: number): number => text.slice(0, offset).split('\n').length - 1;
  const touched = new Array<boolean>(text.split('\n').length).fill(false);
  for (const m of text.matchAll(regex)) {
    const first = lineOf(m.index);
    const last = lineOf(m.index + Math.max(0, m[0].length - 1));
    for (let l = first; l <= last; l++) touched[l] = true;
  }
  return touched;
}

function withContext(lines: string[], matches: number[], before: number, after: number): GrepLine[] {
  const isMatch = new Set(matches);
  const wanted = new Set<number>();
  for (const m of matches) {
    for (let l = Math.max(0, m - before); l <= Math.min(lines.length - 1, m + after); l++) wanted.add(l);
  }
  return [...wanted]
    .sort((a, b) => a - b)
    .map((l) => ({ number: l + 1, text: lines[l] ?? '', match: isMatch.has(l) }));
}

/** `rg` on PATH, looked up once per process. */
let ripgrepPath: string | null | undefined;
export async function findRipgrep(): Promise<string | null> {
  if (ripgrepPath !== undefined) return ripgrepPath;
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    const candidate = path.join(dir, 'rg');
    const info = await stat(candidate).catch(() => null);
    if (info?.isFile() && (info.mode & 0o111) !== 0) return (ripgrepPath = candidate);
  }
  return (ripgrepPath = null);
}
