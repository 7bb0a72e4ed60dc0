/** How commands print: tables for people, `--json` for scripts. */

export function printJson(value: unknown): void {
  process.stdout.write(JSON.stringify(value, null, 2) + '\n');
}

export function printLine(text: string): void {
  process.stdout.write(text + '\n');
}

/** A warning on stderr that does not change the exit code (e.g. a bad file skipped while listing). */
export function printWarning(text: string): void {
  process.stderr.write(`teamd: warning: ${text}\n`);
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
