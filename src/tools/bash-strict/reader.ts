/**
 * The strict reader: turns a command line into simple commands, or refuses.
 * It accepts only the subset of bash whose meaning it knows exactly (see
 * types.ts); every other construct — subshells, braces, functions, loops,
 * backticks, `$((…))`, `${x…}` operators, `$'…'`, process substitution,
 * redirections other than reading and `/dev/null`, `&`, control characters,
 * unquoted non-ASCII — is a refusal with its reason. Iterative except for
 * `$(…)`, whose depth is capped, so deep input cannot exhaust the stack.
 */
import { readDollar, type Part } from './reader-dollar.js';
import { readRedirect } from './reader-redirect.js';
import type { Assignment, StrictCommand, StrictRead, Word } from './types.js';

export const READER_LIMITS = { maxLength: 20_000, maxDepth: 6 } as const;

/** A refusal: the construct at this point is outside the understood subset. */
export class Refusal extends Error {}

/** Unquoted characters that are literal to bash in every position we accept. */
/** (`~` here is mid-word, which bash leaves alone.) */
const PLAIN = /[A-Za-z0-9_./,:=+@%^!~\]-]/;
const GLOB = new Set(['*', '?', '[']);
const ASSIGNMENT = /^([A-Za-z_][A-Za-z0-9_]*)\+?=/;
export const UNKNOWN = '\u0000';

export interface Cursor {
  src: string;
  i: number;
  depth: number;
  /** Every simple command read so far, nested ones included. */
  out: StrictCommand[];
  /** Here-document bodies to skip at the next newline: true when the body must be literal text. */
  heredocs: { delimiter: string; stripTabs: boolean; quoted: boolean }[];
}

export function readStrict(src: string): StrictRead {
  if (src.length > READER_LIMITS.maxLength) return { ok: false, reason: 'the command is too long to check' };
  const cursor: Cursor = { src, i: 0, depth: 0, out: [], heredocs: [] };
  try {
    readSequence(cursor);
    if (cursor.heredocs.length > 0) throw new Refusal('a here-document is not closed');
    return { ok: true, commands: cursor.out };
  } catch (error) {
    if (error instanceof Refusal) return { ok: false, reason: error.message };
    throw error;
  }
}

/** Commands joined by `|`, `|&`, `&&`, `||`, `;` and newlines, up to the end (or the `)` of a `$(…)`). */
export function readSequence(c: Cursor): void {
  let command: StrictCommand = { assignments: [], words: [] };
  let empty = true; // nothing since the last operator
  let joined = false; // the last operator needs a command after it (| && ||)
  for (;;) {
    skipBlanks(c);
    const ch = c.src[c.i];
    if (ch === undefined || (ch === ')' && c.depth > 0)) break;
    if (ch === '#') skipComment(c);
    else if (ch === '\n' || ch === ';' || ch === '|' || (ch === '&' && c.src[c.i + 1] === '&')) {
      const op = readOperator(c);
      if (empty && op !== '\n') throw new Refusal(`${op} with no command before it`);
      finish(c, command);
      command = { assignments: [], words: [] };
      empty = true;
      joined = op !== ';' && op !== '\n';
    } else {
      if (!readRedirect(c)) addWord(command, readWord(c));
      empty = false;
    }
  }
  if (empty && joined) throw new Refusal('an operator with no command after it');
  finish(c, command);
}

function readOperator(c: Cursor): string {
  const two = c.src.slice(c.i, c.i + 2);
  if (two === '&&' || two === '||' || two === '|&') {
    c.i += 2;
    return two;
  }
  if (two === ';;') throw new Refusal(';; outside a case statement');
  const op = c.src[c.i] as string;
  c.i++;
  if (op === '\n') skipHeredocBodies(c);
  return op;
}

function finish(c: Cursor, command: StrictCommand): void {
  if (command.words.length > 0 || command.assignments.length > 0) c.out.push(command);
}

function addWord(command: StrictCommand, read: { word: Word; prefix: string }): void {
  const match = command.words.length === 0 ? ASSIGNMENT.exec(read.prefix) : null;
  if (match === null) {
    command.words.push(read.word);
    return;
  }
  const cut = match[0].length;
  const text = read.word.text.slice(cut);
  const assignment: Assignment = {
    name: match[1] as string,
    value: { ...read.word, text, anchored: read.word.anchored || text === '' },
  };
  command.assignments.push(assignment);
}

function skipBlanks(c: Cursor): void {
  for (;;) {
    const ch = c.src[c.i];
    if (ch === ' ' || ch === '\t') c.i++;
    else if (ch === '\\' && c.src[c.i + 1] === '\n') c.i += 2;
    else return;
  }
}

function skipComment(c: Cursor): void {
  while (c.i < c.src.length && c.src[c.i] !== '\n') c.i++;
}

/** One word: its parts, and the unquoted literal text it starts with (for `NAME=value`). */
export function readWord(c: Cursor): { word: Word; prefix: string } {
  const parts: Part[] = [];
  let prefix = '';
  let quotedYet = false;
  for (;;) {
    const part = readPart(c, parts.length === 0);
    if (part === null) break;
    if (!part.quoted && !part.dynamic && !quotedYet) prefix += part.text;
    else quotedYet = true;
    parts.push(part);
  }
  if (parts.length === 0) throw new Refusal(`${describeChar(c.src[c.i])} where a word was expected`);
  return { word: toWord(parts), prefix };
}

function toWord(parts: Part[]): Word {
  const text = parts.map((p) => p.text).join('');
  const dynamic = parts.some((p) => p.dynamic);
  const splits = parts.some((p) => p.dynamic && p.splits);
  const first = parts[0] as Part;
  const leadsLiteral =
    first.path === true || (!first.dynamic && first.text !== '' && !first.text.startsWith('-'));
  return {
    text,
    dynamic,
    splits,
    anchored: !splits && (leadsLiteral || (!dynamic && !text.startsWith('-'))),
  };
}

/** The next part of the current word, or null at its end. */
function readPart(c: Cursor, first: boolean): Part | null {
  const ch = c.src[c.i];
  if (ch === undefined || ' \t\n;&|<>'.includes(ch) || (ch === ')' && c.depth > 0)) return null;
  if (ch === "'") return readSingleQuoted(c);
  if (ch === '"') return readDoubleQuoted(c);
  if (ch === '$') return readDollar(c, false);
  if (ch === '\\') return readEscape(c);
  if (ch === '~' && first) return readTilde(c);
  if (GLOB.has(ch)) return readGlob(c);
  if (ch === '{' || ch === '}') return readBrace(c, first);
  if (PLAIN.test(ch)) {
    c.i++;
    return { text: ch, quoted: false, dynamic: false, splits: false };
  }
  throw new Refusal(`${describeChar(ch)} outside quotes`);
}

function readSingleQuoted(c: Cursor): Part {
  const close = c.src.indexOf("'", c.i + 1);
  if (close === -1) throw new Refusal('a single quote is not closed');
  const text = c.src.slice(c.i + 1, close);
  checkQuotedText(text);
  c.i = close + 1;
  return { text, quoted: true, dynamic: false, splits: false };
}

function readDoubleQuoted(c: Cursor): Part {
  c.i++;
  let text = '';
  let dynamic = false;
  for (;;) {
    const ch = c.src[c.i];
    if (ch === undefined) throw new Refusal('a double quote is not closed');
    if (ch === '"') break;
    if (ch === '`') throw new Refusal('a backtick command substitution');
    if (ch === '$') {
      const part = readDollar(c, true);
      text += part.text;
      dynamic ||= part.dynamic;
    } else if (ch === '\\' && '$`"\\\n'.includes(c.src[c.i + 1] ?? 'x')) {
      if (c.src[c.i + 1] !== '\n') text += c.src[c.i + 1];
      c.i += 2;
    } else {
      checkQuotedText(ch);
      text += ch;
      c.i++;
    }
  }
  c.i++;
  return { text, quoted: true, dynamic, splits: false };
}

function readEscape(c: Cursor): Part | null {
  const next = c.src[c.i + 1];
  if (next === '\n') {
    c.i += 2;
    return { text: '', quoted: true, dynamic: false, splits: false };
  }
  if (next === undefined || !/[\x20-\x7e\t]/.test(next))
    throw new Refusal('a backslash before an unusual character');
  c.i += 2;
  return { text: next, quoted: true, dynamic: false, splits: false };
}

/** `~` and `~/…` expand to the home folder (a path, never an option); `~user`, `~+`, `~-` are refused. */
function readTilde(c: Cursor): Part {
  const next = c.src[c.i + 1];
  if (next !== undefined && !' \t\n;&|<>/'.includes(next)) throw new Refusal('a ~user or ~+ expansion');
  c.i++;
  return { text: '/', quoted: false, dynamic: true, splits: false, path: true };
}

function readGlob(c: Cursor): Part {
  const ch = c.src[c.i] as string;
  const alone = ch === '[' && /^\[([ \t\n;&|]|$)/.test(c.src.slice(c.i, c.i + 2));
  c.i++;
  return alone
    ? { text: ch, quoted: false, dynamic: false, splits: false }
    : { text: UNKNOWN, quoted: false, dynamic: true, splits: true, glob: true };
}

/** Only `{}` as a whole word (find, xargs) is accepted: anything else may be brace expansion or a group. */
function readBrace(c: Cursor, first: boolean): Part {
  const whole = first && /^\{\}([ \t\n;&|)]|$)/.test(c.src.slice(c.i, c.i + 3));
  if (!whole) throw new Refusal('a brace outside quotes (brace expansion or a command group)');
  c.i += 2;
  return { text: '{}', quoted: false, dynamic: false, splits: false };
}

/** Quoted text may hold anything printable, non-ASCII too, but no control characters. */
export function checkQuotedText(text: string): void {
  if (/[\x00-\x08\x0b-\x1f\x7f]/.test(text)) throw new Refusal('a control character');
}

export function describeChar(ch: string | undefined): string {
  if (ch === undefined) return 'the end of the command';
  const code = ch.codePointAt(0) ?? 0;
  return code < 0x20 || code > 0x7e ? `the character U+${code.toString(16).padStart(4, '0')}` : `"${ch}"`;
}

/** After a newline: the bodies of the here-documents opened on the line just ended. */
function skipHeredocBodies(c: Cursor): void {
  for (const doc of c.heredocs.splice(0)) {
    const start = c.i;
    for (;;) {
      if (c.i >= c.src.length)
        throw new Refusal(`the here-document ending with ${doc.delimiter} is not closed`);
      const nl = c.src.indexOf('\n', c.i);
      const end = nl === -1 ? c.src.length : nl;
      const line = c.src.slice(c.i, end);
      c.i = end + 1;
      if ((doc.stripTabs ? line.replace(/^\t+/, '') : line) === doc.delimiter) break;
    }
    const body = c.src.slice(start, c.i);
    checkQuotedText(body.replace(/\t/g, ' '));
    if (!doc.quoted && /[$`\\]/.test(body)) throw new Refusal('an unquoted here-document with expansions');
  }
  if (c.i > c.src.length) c.i = c.src.length;
}
