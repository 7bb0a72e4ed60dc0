/**
 * How commands print: tables for people, `--json` for scripts. Everything
 * printed may hold text from the repository, so each printer makes it
 * terminal-safe (src/observe/terminal-safe.ts): no escape sequence, C1 or
 * bidi control, and no CR, reaches the terminal raw.
 */
import { hiddenLinesMark } from '../observe/hidden-lines.js';
import { terminalSafe, terminalSafeJson, terminalSafeLine } from '../observe/terminal-safe.js';

const write = (text: string): void => void process.stdout.write(text + '\n');

/** Pretty JSON; DEL, C1 and bidi controls written as `\u…` escapes (the same strings once parsed). */
export function printJson(value: unknown): void {
  write(terminalSafeJson(value, 2));
}

/** One compact JSON value on a line (JSON lines), escaped as printJson's. */
export function printJsonLine(value: unknown): void {
  write(terminalSafeJson(value));
}

/**
 * Text that may span lines (a description, a diff): newlines and tabs kept,
 * every other control shown as an escape. A record that must stay on one
 * line is printed with printRecordLine.
 */
export function printLine(text: string): void {
  write(terminalSafe(text));
}

/** One line of a record (`  parser [pending] … — waiting for lexer`): a newline or CR in it is shown as `\n`, `\r`. */
export function printRecordLine(text: string): void {
  write(terminalSafeLine(text));
}

/**
 * A line carrying teamd's own colour codes, printed as it is: its maker has
 * escaped every part from the repository (terminalSafeLine) before adding
 * the colour, as the transcript and daemon-log renderers do.
 */
export function printStyledLine(text: string): void {
  write(text);
}

const warned = new Set<string>();

/**
 * A warning on stderr that does not change the exit code (e.g. a bad file
 * skipped while listing), on one line. Each text is printed once per
 * command, however many times the command meets it.
 */
export function printWarning(text: string): void {
  if (warned.has(text)) return;
  warned.add(text);
  process.stderr.write(`teamd: warning: ${terminalSafeLine(text)}\n`);
}

/**
 * `teamd task ls | head`: once the reader is gone, stop quietly (exit 0)
 * instead of dying on an unhandled EPIPE with a stack trace.
 */
export function exitQuietlyOnBrokenPipe(stream: NodeJS.WriteStream = process.stdout): void {
  stream.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code !== 'EPIPE') throw err;
    process.exit(0);
  });
}

/** Left-aligned columns, each cell on one line; the last column is not padded. */
export function printTable(header: readonly string[], rows: readonly (readonly string[])[]): void {
  const cells = [header, ...rows].map((r) => r.map(terminalSafeLine));
  const widths = header.map((_, i) => Math.max(...cells.map((r) => (r[i] ?? '').length)));
  for (const row of cells)
    write(
      row
        .map((c, i) => (i === row.length - 1 ? c : c.padEnd(widths[i]!)))
        .join('  ')
        .trimEnd(),
    );
}

/** Every line of `text` indented by two spaces (a block under its label); only `\n` ends a line (a CR is shown, not obeyed). */
export const indent = (text: string): string =>
  text
    .split('\n')
    .map((l) => `  ${l}`)
    .join('\n');

/**
 * The first line of `text`, cut to `max` characters and made terminal-safe;
 * when more lines follow, it says how many (`rm -rf build … (+2 lines)`), so
 * a value never hides a line from the person reading it.
 */
export function oneLine(text: string, max = 72): string {
  const first = text.split('\n', 1)[0] ?? '';
  return terminalSafeLine(first.length > max ? `${first.slice(0, max - 1)}…` : first) + hiddenLinesMark(text);
}
