/**
 * `sed` is read-only when it edits nothing in place and its script only
 * prints. The script is read command by command (GNU syntax); accepted are
 * addresses, `{ } ! = a b c d D g G h H i l n N p P q Q r R t T v x y z F :`,
 * and `s` with the flags g p i I m M and a number. Refused: `e` (runs a
 * command), `w` / `W` (write a file), the `e` and `w` flags of `s`, `-i`,
 * `-f` (a script we cannot see), and any script text we cannot follow.
 */
import { parseFlags, refuse, OK, type FlagSpec } from './flags.js';
import type { CommandRule, Verdict, Word } from './types.js';

const SED: FlagSpec = {
  short: 'nErsuz',
  shortArg: 'el',
  long: [
    'help',
    'version',
    'quiet',
    'silent',
    'regexp-extended',
    'separate',
    'unbuffered',
    'null-data',
    'posix',
    'debug',
    'sandbox',
  ],
  longArg: ['expression', 'line-length'],
};

export const sedRule: CommandRule = { pure: false, check: checkSed };

function checkSed(args: Word[]): Verdict {
  const parsed = parseFlags(SED, args, false);
  if (!parsed.ok) return parsed;
  const scripts = parsed.args.options
    .filter((o) => o.name === '-e' || o.name === '--expression')
    .map((o) => o.value as Word);
  if (scripts.length === 0) {
    const first = parsed.args.operands[0];
    if (first === undefined) return refuse('sed without a script');
    scripts.push(first);
  }
  for (const script of scripts) {
    if (script.dynamic) return refuse('a sed script whose text is not known');
    const verdict = checkScript(script.text);
    if (!verdict.ok) return verdict;
  }
  return OK;
}

class SedRefusal extends Error {}

const SIMPLE = new Set([...'=dDgGhHlnNpPqQxzF']);
const S_FLAGS = /^[gpiImM0-9]$/;

/** Exported for tests. */
export function checkScript(script: string): Verdict {
  const s = { text: script, i: 0 };
  try {
    while (s.i < s.text.length) command(s);
    return OK;
  } catch (error) {
    if (error instanceof SedRefusal) return refuse(`sed: ${error.message}`);
    throw error;
  }
}

interface State {
  text: string;
  i: number;
}

function command(s: State): void {
  skip(s, ' \t\n;');
  if (s.i >= s.text.length) return;
  if (s.text[s.i] === '#') return toEndOfLine(s);
  address(s);
  skip(s, ' \t');
  const ch = s.text[s.i++];
  if (ch === undefined) throw new SedRefusal('an address without a command');
  if (SIMPLE.has(ch) || ch === '{' || ch === '}') return afterSimple(s, ch);
  if (ch === 's') return substitute(s);
  if (ch === 'y') return transliterate(s);
  if ('btT:v'.includes(ch)) return label(s);
  if ('aic'.includes(ch) || ch === 'r' || ch === 'R') return toEndOfLine(s);
  throw new SedRefusal(`the command ${ch} (e runs a program, w and W write files)`);
}

function afterSimple(s: State, ch: string): void {
  if ('qQlL'.includes(ch)) skip(s, '0123456789 \t');
}

function address(s: State): void {
  one(s);
  skip(s, ' \t');
  if (s.text[s.i] === ',') {
    s.i++;
    skip(s, ' \t');
    if (s.text[s.i] === '+' || s.text[s.i] === '~') s.i++;
    one(s);
  }
  skip(s, ' \t');
  if (s.text[s.i] === '!') s.i++;
}

function one(s: State): void {
  const ch = s.text[s.i];
  if (ch === '$') s.i++;
  else if (ch !== undefined && /[0-9]/.test(ch)) {
    skip(s, '0123456789');
    if (s.text[s.i] === '~') {
      s.i++;
      skip(s, '0123456789');
    }
  } else if (ch === '/' || ch === '\\') {
    if (ch === '\\') s.i++;
    const delimiter = s.text[s.i++];
    if (delimiter === undefined || delimiter === '\n' || delimiter === '\\')
      throw new SedRefusal('an unusual regex delimiter');
    delimited(s, delimiter);
    skip(s, 'IM');
  }
}

function substitute(s: State): void {
  const delimiter = s.text[s.i++];
  if (delimiter === undefined || delimiter === '\n' || delimiter === '\\')
    throw new SedRefusal('an unusual s delimiter');
  delimited(s, delimiter);
  delimited(s, delimiter);
  while (s.i < s.text.length && !' \t\n;}#'.includes(s.text[s.i] as string)) {
    const flag = s.text[s.i++] as string;
    if (!S_FLAGS.test(flag)) throw new SedRefusal(`the s flag ${flag} (e runs the result, w writes a file)`);
  }
}

function transliterate(s: State): void {
  const delimiter = s.text[s.i++];
  if (delimiter === undefined || delimiter === '\n' || delimiter === '\\')
    throw new SedRefusal('an unusual y delimiter');
  delimited(s, delimiter);
  delimited(s, delimiter);
}

/**
 * Text up to the unescaped delimiter. A delimiter inside a bracket
 * expression is refused: sed implementations disagree on where it ends.
 */
function delimited(s: State, delimiter: string): void {
  let bracket = false;
  for (;;) {
    const ch = s.text[s.i++];
    if (ch === undefined) throw new SedRefusal('an unterminated regex or replacement');
    if (ch === '\\') s.i++;
    else if (ch === delimiter) {
      if (bracket) throw new SedRefusal('the delimiter inside a bracket expression');
      return;
    } else if (ch === '[') bracket = true;
    else if (ch === ']') bracket = false;
  }
}

function label(s: State): void {
  while (s.i < s.text.length && !'\n;'.includes(s.text[s.i] as string)) s.i++;
}

function toEndOfLine(s: State): void {
  while (s.i < s.text.length && s.text[s.i] !== '\n') {
    if (s.text[s.i] === '\\') s.i++;
    s.i++;
  }
}

function skip(s: State, chars: string): void {
  while (s.i < s.text.length && chars.includes(s.text[s.i] as string)) s.i++;
}
