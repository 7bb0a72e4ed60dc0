/**
 * Option tables and the one option reader every command's check uses. A
 * table lists every option the check accepts; anything else — an unknown
 * option, a GNU abbreviation (`--out` for `--output`), an option whose value
 * is split by the shell — is a refusal. Exact names only.
 */
import type { Verdict, Word } from './types.js';

export interface FlagSpec {
  /** Short options without a value, as one string: `'alh'`. */
  short?: string;
  /** Short options that take a value (`-n 5` or `-n5`). */
  shortArg?: string;
  /** Long options without a value (no leading dashes). */
  long?: string[];
  /** Long options that take a value (`--max-count=5` or `--max-count 5`). */
  longArg?: string[];
  /** Long options whose value is optional and only given as `--color=auto`. */
  longOpt?: string[];
  /** `-5` is a count (head, tail, git log). */
  numeric?: boolean;
  /** Options end at the first operand (POSIX order), not anywhere before `--`. */
  optionsFirst?: boolean;
}

export interface ParsedArgs {
  /** Options in order, with their value (null: none; a Word when it came separately or after `=`). */
  options: { name: string; value: Word | null }[];
  operands: Word[];
}

export type FlagResult = { ok: true; args: ParsedArgs } | { ok: false; reason: string };

/** A word made from a literal string (for values cut out of `-n5` or `--x=v`). */
export function literal(text: string, from?: Word): Word {
  const dynamic = from?.dynamic ?? false;
  return { text, dynamic, splits: from?.splits ?? false, anchored: !text.startsWith('-') && !dynamic };
}

/**
 * Reads `args` against `spec`. A word whose value is not known (`$X`, a glob)
 * is accepted only where it cannot become an option: after `--`, or anchored
 * by a literal non-dash start and not split by the shell — unless `pure`
 * (no option of the command writes or runs anything).
 */
export function parseFlags(spec: FlagSpec, args: Word[], pure: boolean): FlagResult {
  const options: ParsedArgs['options'] = [];
  const operands: Word[] = [];
  let ended = false;
  for (let k = 0; k < args.length; k++) {
    const word = args[k] as Word;
    if (ended || word.text === '-' || (!word.dynamic && !word.text.startsWith('-'))) {
      operands.push(word);
      if (spec.optionsFirst === true) ended = true;
      continue;
    }
    if (word.dynamic) {
      if (!pure && !word.anchored) return refuse(`an argument whose value is not known (${show(word)})`);
      operands.push(word);
      continue;
    }
    if (word.text === '--') {
      ended = true;
      continue;
    }
    const step = readOption(spec, word, args[k + 1], pure);
    if (!step.ok) return step;
    options.push(...step.options);
    k += step.consumed;
  }
  return { ok: true, args: { options, operands } };
}

type Step = { ok: true; options: ParsedArgs['options']; consumed: number } | { ok: false; reason: string };

function readOption(spec: FlagSpec, word: Word, next: Word | undefined, pure: boolean): Step {
  if (word.text.startsWith('--')) return readLong(spec, word, next, pure);
  if (spec.numeric === true && /^-\d+$/.test(word.text))
    return { ok: true, options: [{ name: '-n', value: literal(word.text.slice(1)) }], consumed: 0 };
  return readShortCluster(spec, word, next, pure);
}

function readLong(spec: FlagSpec, word: Word, next: Word | undefined, pure: boolean): Step {
  const eq = word.text.indexOf('=');
  const name = eq === -1 ? word.text.slice(2) : word.text.slice(2, eq);
  const inline = eq === -1 ? null : literal(word.text.slice(eq + 1), word);
  const option = `--${name}`;
  if (spec.long?.includes(name) && inline === null)
    return { ok: true, options: [{ name: option, value: null }], consumed: 0 };
  if (spec.longOpt?.includes(name))
    return { ok: true, options: [{ name: option, value: inline }], consumed: 0 };
  if (spec.longArg?.includes(name)) {
    if (inline !== null) return { ok: true, options: [{ name: option, value: inline }], consumed: 0 };
    return valueWord(option, next, pure);
  }
  return refuse(`the option ${option} is not known to be harmless`);
}

function readShortCluster(spec: FlagSpec, word: Word, next: Word | undefined, pure: boolean): Step {
  const options: ParsedArgs['options'] = [];
  for (let j = 1; j < word.text.length; j++) {
    const ch = word.text[j] as string;
    const option = `-${ch}`;
    if (spec.short?.includes(ch)) {
      options.push({ name: option, value: null });
      continue;
    }
    if (!(spec.shortArg?.includes(ch) ?? false))
      return refuse(`the option ${option} (in ${word.text}) is not known to be harmless`);
    const rest = word.text.slice(j + 1);
    if (rest !== '')
      return { ok: true, options: [...options, { name: option, value: literal(rest) }], consumed: 0 };
    const step = valueWord(option, next, pure);
    return step.ok ? { ...step, options: [...options, ...step.options] } : step;
  }
  return { ok: true, options, consumed: 0 };
}

/** The value in the next word: it must exist, and not be split into several words by the shell. */
function valueWord(option: string, next: Word | undefined, pure: boolean): Step {
  if (next === undefined) return refuse(`the option ${option} needs a value`);
  if (next.splits && !pure) return refuse(`the value of ${option} is split by the shell`);
  return { ok: true, options: [{ name: option, value: next }], consumed: 1 };
}

/** A list of option names written as one space-separated string (tables stay readable). */
export function names(list: string): string[] {
  return list.split(' ');
}

export function refuse(reason: string): { ok: false; reason: string } {
  return { ok: false, reason };
}

export const OK: Verdict = { ok: true };

/** A rule's check from a table: the options must all be known; `limit` caps the operands. */
export function byTable(spec: FlagSpec, pure: boolean, limit?: (args: ParsedArgs) => Verdict) {
  return (args: Word[]): Verdict => {
    const parsed = parseFlags(spec, args, pure);
    if (!parsed.ok) return parsed;
    return limit?.(parsed.args) ?? OK;
  };
}

/** At most `n` operands, each one word (no glob, no split): `uniq in out` would write `out`. */
export function atMostOperands(n: number) {
  return (args: ParsedArgs): Verdict => {
    if (args.operands.some((w) => w.dynamic)) return refuse('an operand whose value or count is not known');
    return args.operands.length <= n ? OK : refuse(`more than ${n} operand(s): the extra one is written`);
  };
}

/** `table[key]` for the table's own keys only (`toString` is not a command). */
export function ownEntry<T>(table: Record<string, T>, key: string): T | undefined {
  return Object.hasOwn(table, key) ? table[key] : undefined;
}

export function show(word: Word): string {
  return word.text.replace(/\u0000/g, '…');
}
