/**
 * A small POSIX-shell reader: enough of the grammar to split a command line
 * into simple commands, their words (quotes removed) and their redirections,
 * and to find nested commands ($(…), `…`, <(…)). It does not expand anything.
 * Used to classify bash commands and to match permission rules per command,
 * so `ls && rm -rf x` is judged as two commands, not one that starts with `ls`.
 */

export interface Redirect {
  /** `>`, `>>`, `>|`, `&>`, `&>>`, `<>`, `<`, `<<`, `<<-`, `<<<`, `>&`, `<&`. */
  op: string;
  /** The explicit file descriptor (`2>`), or null. */
  fd: number | null;
  /** The target word, quotes removed (a heredoc's delimiter for `<<`). */
  target: string;
}

export interface SimpleCommand {
  /** Words with quotes removed, in order (assignments such as `A=1` included). */
  words: string[];
  redirects: Redirect[];
  /** The command's own source text, trimmed. */
  text: string;
  /** The operator that follows it: `|`, `|&`, `&&`, `||`, `;`, `&`, `(`, `)`, or null at the end. */
  next: string | null;
}

export interface ParsedShell {
  commands: SimpleCommand[];
  /** The source of every $(…), `…`, <(…) and >(…): commands in their own right. */
  substitutions: string[];
  /** Null when the whole text was understood; otherwise what stopped the reader. */
  error: string | null;
}

type Token =
  | { kind: 'word'; value: string; start: number; end: number }
  | { kind: 'op'; value: string; fd: number | null; start: number; end: number };

const OPERATORS = [
  '&&',
  '||',
  '|&',
  '&>>',
  '&>',
  ';;',
  '>>',
  '>|',
  '>&',
  '<<<',
  '<<-',
  '<<',
  '<&',
  '<>',
  '|',
  '&',
  ';',
  '(',
  ')',
  '<',
  '>',
];
const SEPARATORS = new Set(['&&', '||', '|&', '|', '&', ';', ';;', '(', ')']);

class ShellSyntaxError extends Error {}

export function parseShell(source: string): ParsedShell {
  const substitutions: string[] = [];
  try {
    const tokens = lex(source, substitutions);
    return { commands: group(tokens, source), substitutions, error: null };
  } catch (error) {
    if (!(error instanceof ShellSyntaxError)) throw error;
    return { commands: [], substitutions, error: error.message };
  }
}

function lex(src: string, subs: string[]): Token[] {
  const tokens: Token[] = [];
  const heredocs: Heredoc[] = [];
  let i = 0;
  while (i < src.length) {
    const c = src[i];
    if (c === ' ' || c === '\t' || c === '\r') i++;
    else if (c === '\\' && src[i + 1] === '\n') i += 2;
    else if (c === '\n') {
      tokens.push({ kind: 'op', value: ';', fd: null, start: i, end: i + 1 });
      i = skipHeredocBodies(src, i + 1, heredocs.splice(0), subs);
    } else if (c === '#') i = endOfLine(src, i);
    else if ((c === '<' || c === '>') && src[i + 1] === '(') {
      const end = closingParen(src, i + 1);
      subs.push(src.slice(i + 2, end - 1));
      tokens.push({ kind: 'word', value: src.slice(i, end), start: i, end });
      i = end;
    } else if (isOperatorStart(src, i)) i = lexOperator(src, i, tokens, heredocs);
    else i = lexWord(src, i, tokens, subs);
  }
  if (heredocs.length > 0)
    throw new ShellSyntaxError(`the here-document ending with ${heredocs[0]?.delimiter} is not closed`);
  return tokens;
}

function isOperatorStart(src: string, i: number): boolean {
  return '|&;()<>'.includes(src[i] ?? '') || /^\d+[<>]/.test(src.slice(i, i + 12));
}

/** A here-document waiting for its body; `expands` when the delimiter was unquoted (then $(…) in the body runs). */
interface Heredoc {
  delimiter: string;
  stripTabs: boolean;
  expands: boolean;
}

function lexOperator(src: string, i: number, tokens: Token[], heredocs: Heredoc[]): number {
  const fdMatch = /^\d+/.exec(src.slice(i));
  const fd = fdMatch ? Number(fdMatch[0]) : null;
  const at = i + (fdMatch?.[0].length ?? 0);
  const op = OPERATORS.find((o) => src.startsWith(o, at)) ?? src.charAt(at);
  const end = at + op.length;
  tokens.push({ kind: 'op', value: op, fd, start: i, end });
  if (op === '<<' || op === '<<-') {
    const probe: Token[] = [];
    const next = lexWord(src, skipBlanks(src, end), probe, []);
    const word = probe[0];
    if (word?.kind !== 'word') throw new ShellSyntaxError('a here-document needs a delimiter word after <<');
    const raw = src.slice(word.start, word.end);
    heredocs.push({ delimiter: word.value, stripTabs: op === '<<-', expands: !/['"\\]/.test(raw) });
    tokens.push(word);
    return next;
  }
  return end;
}

function lexWord(src: string, start: number, tokens: Token[], subs: string[]): number {
  let value = '';
  let i = start;
  while (i < src.length) {
    const c = src[i] as string;
    if (' \t\r\n|&;()<>'.includes(c)) break;
    if (c === '\\') {
      if (src[i + 1] !== '\n') value += src[i + 1] ?? '';
      i += 2;
    } else if (c === "'") {
      const close = src.indexOf("'", i + 1);
      if (close === -1) throw new ShellSyntaxError('a single quote is not closed');
      value += src.slice(i + 1, close);
      i = close + 1;
    } else if (c === '"') {
      const read = readDoubleQuoted(src, i, subs);
      value += read.value;
      i = read.end;
    } else if (c === '$' && (src[i + 1] === '(' || src[i + 1] === "'")) {
      const end = src[i + 1] === '(' ? readDollarParen(src, i, subs) : closingQuote(src, i + 2, "'") + 1;
      value += src.slice(i, end);
      i = end;
    } else if (c === '`') {
      const end = readBacktick(src, i, subs);
      value += src.slice(i, end);
      i = end;
    } else {
      value += c;
      i++;
    }
  }
  tokens.push({ kind: 'word', value, start, end: i });
  return i;
}

function readDoubleQuoted(src: string, open: number, subs: string[]): { value: string; end: number } {
  let value = '';
  let i = open + 1;
  while (i < src.length && src[i] !== '"') {
    const c = src[i] as string;
    if (c === '\\' && '"\\$`\n'.includes(src[i + 1] ?? '')) {
      if (src[i + 1] !== '\n') value += src[i + 1];
      i += 2;
    } else if (c === '$' && src[i + 1] === '(') {
      const end = readDollarParen(src, i, subs);
      value += src.slice(i, end);
      i = end;
    } else if (c === '`') {
      const end = readBacktick(src, i, subs);
      value += src.slice(i, end);
      i = end;
    } else {
      value += c;
      i++;
    }
  }
  if (i >= src.length) throw new ShellSyntaxError('a double quote is not closed');
  return { value, end: i + 1 };
}

/** `$(cmd)` records cmd; `$((1+2))` is arithmetic, not a command, but `$(( a[$(cmd)] ))` still runs cmd. */
function readDollarParen(src: string, dollar: number, subs: string[]): number {
  const end = closingParen(src, dollar + 1);
  if (src[dollar + 2] !== '(') subs.push(src.slice(dollar + 2, end - 1));
  else findSubstitutions(src.slice(dollar + 3, end - 2), subs);
  return end;
}

function readBacktick(src: string, open: number, subs: string[]): number {
  const close = closingQuote(src, open + 1, '`');
  subs.push(src.slice(open + 1, close).replace(/\\`/g, '`'));
  return close + 1;
}

/** Deeper nesting is refused: each level is read again, so 10 000 levels would take minutes. */
export const MAX_NESTING = 32;
export const TOO_DEEP = 'commands are nested too deeply to check';

/** Index just past the `)` matching the `(` at `open`, skipping quoted text. */
function closingParen(src: string, open: number): number {
  let depth = 0;
  for (let i = open; i < src.length; i++) {
    const c = src[i];
    if (c === '\\') i++;
    else if (c === "'" || c === '"' || c === '`') i = closingQuote(src, i + 1, c);
    else if (c === '(' && ++depth > MAX_NESTING) throw new ShellSyntaxError(TOO_DEEP);
    else if (c === ')' && --depth === 0) return i + 1;
  }
  throw new ShellSyntaxError('a parenthesis is not closed');
}

function closingQuote(src: string, from: number, quote: string): number {
  for (let i = from; i < src.length; i++) {
    if (src[i] === '\\' && quote !== "'") i++;
    else if (src[i] === quote) return i;
  }
  throw new ShellSyntaxError(`a ${quote} quote is not closed`);
}

function skipHeredocBodies(src: string, from: number, pending: Heredoc[], subs: string[]): number {
  let i = from;
  for (const doc of pending) {
    const bodyStart = i;
    for (;;) {
      if (i >= src.length)
        throw new ShellSyntaxError(`the here-document ending with ${doc.delimiter} is not closed`);
      const end = endOfLine(src, i);
      const line = src.slice(i, end);
      if ((doc.stripTabs ? line.replace(/^\t+/, '') : line) === doc.delimiter) {
        if (doc.expands) findSubstitutions(src.slice(bodyStart, i), subs);
        i = end + 1;
        break;
      }
      i = end + 1;
    }
  }
  return i;
}

function findSubstitutions(text: string, subs: string[]): void {
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === '$' && text[i + 1] === '(') i = readDollarParen(text, i, subs) - 1;
    else if (text[i] === '`') i = readBacktick(text, i, subs) - 1;
  }
}

function endOfLine(src: string, from: number): number {
  const nl = src.indexOf('\n', from);
  return nl === -1 ? src.length : nl;
}

function skipBlanks(src: string, from: number): number {
  let i = from;
  while (src[i] === ' ' || src[i] === '\t') i++;
  return i;
}

function group(tokens: Token[], src: string): SimpleCommand[] {
  const commands: SimpleCommand[] = [];
  let current: { words: string[]; redirects: Redirect[]; start: number; end: number } | null = null;
  const close = (next: string | null): void => {
    if (current !== null)
      commands.push({
        words: current.words,
        redirects: current.redirects,
        text: src.slice(current.start, current.end).trim(),
        next,
      });
    current = null;
  };
  for (let k = 0; k < tokens.length; k++) {
    const token = tokens[k] as Token;
    if (token.kind === 'op' && SEPARATORS.has(token.value)) {
      close(token.value);
      continue;
    }
    current ??= { words: [], redirects: [], start: token.start, end: token.end };
    current.end = token.end;
    if (token.kind === 'word') current.words.push(token.value);
    else {
      const target = tokens[k + 1];
      if (target?.kind !== 'word') throw new ShellSyntaxError(`${token.value} needs a target`);
      current.redirects.push({ op: token.value, fd: token.fd, target: target.value });
      current.end = target.end;
      k++;
    }
  }
  close(null);
  return commands;
}
