/** How commands print: tables for people, `--json` for scripts. */

export function printJson(value: unknown): void {
  process.stdout.write(JSON.stringify(value, null, 2) + '\n');
}

export function printLine(text: string): void {
  process.stdout.write(text + '\n');
}

const warned = new Set<string>();

/**
 * A warning on stderr that does not change the exit code (e.g. a bad file
 * skipped while listing). Each text is printed once per command, however
 * many times the command meets it.
 */
export function printWarning(text: string): void {
  if (warned.has(text)) return;
  warned.add(text);
  process.stderr.write(`teamd: warning: ${text}\n`);
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

/** Left-aligned columns; the last column is not padded. */
export function printTable(header: readonly string[], rows: readonly (readonly string[])[]): void {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]): string =>
    cells
      .map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
  printLine(line(header));
  for (const row of rows) printLine(line(row));
}

/** The first line of `text`, cut to `max` characters. */
export function oneLine(text: string, max = 72): string {
  const first = text.split('\n', 1)[0] ?? '';
  return first.length > max ? `${first.slice(0, max - 1)}…` : first;
}
