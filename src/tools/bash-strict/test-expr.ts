/**
 * `test` / `[`: file and string tests only. Refused: `-v NAME` (a subscript
 * `a[$(cmd)]` in NAME runs cmd), `-R`, and the arithmetic comparisons
 * (`-eq` …) unless both sides are plain integers — bash evaluates their
 * operands as arithmetic in some contexts, subscripts included. A value
 * known only at run time may stand only where it cannot be an operator.
 */
import { OK, refuse } from './flags.js';
import type { Verdict, Word } from './types.js';

const UNARY = new Set([
  '-a',
  '-b',
  '-c',
  '-d',
  '-e',
  '-f',
  '-g',
  '-G',
  '-h',
  '-k',
  '-L',
  '-N',
  '-O',
  '-p',
  '-r',
  '-s',
  '-S',
  '-t',
  '-u',
  '-w',
  '-x',
  '-z',
  '-n',
]);
const STRING_BINARY = new Set(['=', '==', '!=', '-nt', '-ot', '-ef']);
const ARITHMETIC = new Set(['-eq', '-ne', '-lt', '-le', '-gt', '-ge']);
const INTEGER = /^-?\d{1,18}$/;

export function checkTest(args: Word[]): Verdict {
  const start = args[0]?.text === '!' && !args[0].dynamic ? 1 : 0;
  const rest = args.slice(start);
  if (rest.some((w) => w.splits))
    return refuse('test with an unquoted expansion (it may split into operators)');
  if (rest.length === 0) return OK;
  if (rest.length === 1) return OK;
  const [a, b, c] = rest as [Word, Word, Word | undefined];
  if (rest.length === 2)
    return !a.dynamic && UNARY.has(a.text) ? OK : refuse(`test ${a.text} is not a known file or string test`);
  if (rest.length > 3 || c === undefined || b.dynamic) return refuse('test with a compound expression');
  if (STRING_BINARY.has(b.text)) return OK;
  if (ARITHMETIC.has(b.text) && [a, c].every((w) => !w.dynamic && INTEGER.test(w.text))) return OK;
  return refuse(`test ${b.text} with these operands is not checked`);
}
