/**
 * Bad input at the command line. `main` prints it as one line,
 * `teamd: error: <message>` (terminal-safe: a newline in it is shown as
 * `\n`), then the `detail` lines when there are some, and exits with
 * `exitCode`.
 */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode = 1,
    readonly detail?: string,
  ) {
    super(message);
    this.name = 'CliError';
  }
}

/** Fails the command; `detail` is printed under the error line (the failed checks, a log's tail). */
export function fail(message: string, detail?: string): never {
  throw new CliError(message, 1, detail);
}
