/**
 * Bad input at the command line. `main` prints it as one line,
 * `teamd: error: <message>`, and exits with `exitCode`.
 */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
    this.name = 'CliError';
  }
}

export function fail(message: string): never {
  throw new CliError(message);
}
