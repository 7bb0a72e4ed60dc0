/**
 * `$` in the strict reader: `$NAME`, `${NAME}`, the special parameters and
 * `$(…)` (read as commands of their own) are understood; `$((…))`, `$[…]`,
 * `${x:-…}` and every other operator, `$'…'` and `$"…"` are refused.
 */
import { Refusal, READER_LIMITS, readSequence, UNKNOWN, type Cursor } from './reader.js';

/**
 * A piece of a word. `splits`: the shell may make several words of it (an
 * unquoted expansion, or a glob). `glob`: the pieces are file names matching
 * it, so each keeps the literal start. `path`: an expansion known to give a
 * path (`~`), never an option.
 */
export interface Part {
  text: string;
  quoted: boolean;
  dynamic: boolean;
  splits: boolean;
  glob?: boolean;
  path?: boolean;
}

const NAME = /^[A-Za-z_][A-Za-z0-9_]*/;
const SPECIAL = /^[?#$!0-9]/;

export function readDollar(c: Cursor, inQuotes: boolean): Part {
  const rest = c.src.slice(c.i + 1, c.i + 200);
  const expansion = (length: number): Part => {
    c.i += length;
    return { text: UNKNOWN, quoted: inQuotes, dynamic: true, splits: !inQuotes };
  };
  const name = NAME.exec(rest);
  if (name !== null) return expansion(1 + name[0].length);
  if (SPECIAL.test(rest)) return expansion(2);
  if (rest.startsWith('{')) return expansion(1 + bracedLength(rest));
  if (rest.startsWith('((')) throw new Refusal('an arithmetic expansion $((…))');
  if (rest.startsWith('(')) return readCommandSubstitution(c, inQuotes);
  if (rest === '' || /^[ \t\n;|&)]/.test(rest) || (inQuotes && rest.startsWith('"'))) {
    c.i++;
    return { text: '$', quoted: inQuotes, dynamic: false, splits: false };
  }
  throw new Refusal(`an expansion $${rest.charAt(0)}… that is not checked`);
}

/** `{NAME}` only: its length; `${#x}`, `${x:-y}`, `${x@P}`, `${!x}`, `${a[i]}` are refused. */
function bracedLength(rest: string): number {
  const inner = /^\{([A-Za-z_][A-Za-z0-9_]*)\}/.exec(rest);
  if (inner === null) throw new Refusal('a ${…} expansion with an operator or subscript');
  return inner[0].length;
}

function readCommandSubstitution(c: Cursor, inQuotes: boolean): Part {
  if (c.depth >= READER_LIMITS.maxDepth) throw new Refusal('command substitutions nested too deeply');
  c.i += 2;
  c.depth++;
  const pending = c.heredocs.length;
  readSequence(c);
  if (c.heredocs.length !== pending) throw new Refusal('a here-document inside $(…)');
  c.depth--;
  if (c.src[c.i] !== ')') throw new Refusal('a $( is not closed');
  c.i++;
  return { text: UNKNOWN, quoted: inQuotes, dynamic: true, splits: !inQuotes };
}
