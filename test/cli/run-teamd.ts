import { execFile } from 'node:child_process';
import { teamdArgs } from '../support/teamd-cli.js';

export interface TeamdRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `teamd ...args` (test/support/teamd-cli.ts) in `cwd`, as a user would. */
export function teamd(cwd: string, ...args: string[]): Promise<TeamdRun> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      teamdArgs(...args),
      { cwd, timeout: 30_000 },
      (err, stdout, stderr) => {
        const code = err ? (typeof err.code === 'number' ? err.code : 1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

/** A failed run prints exactly one line, `teamd: error: …`. */
export function errorLine(run: TeamdRun): string {
  const lines = run.stderr.trimEnd().split('\n');
  if (run.code === 0 || lines.length !== 1)
    throw new Error(`expected one error line, got code ${run.code}: ${run.stderr}`);
  return lines[0]!;
}
