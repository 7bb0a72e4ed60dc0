/**
 * The teammate's side of an out-of-process host: `teamd teammate --stdio`
 * (and this module run directly, which the process host does to skip the
 * CLI's start-up). The first line on stdin is the `WorkerData`; then every
 * line is a `ToWorker` message, every line on stdout a `FromWorker` one.
 * stdout is the channel and nothing else: whatever the teammate's code
 * prints goes to stderr, which the lead copies to its log.
 *
 * A bad line is a crash with a clear error on stderr (exit 2), never a hang;
 * stdin ending (the lead died, the ssh session dropped) stops the teammate,
 * and ends this process soon after if the stop does not.
 */
import { fileURLToPath } from 'node:url';
import { runTeammate } from '../run.js';
import { z } from 'zod';
import { ToWorkerSchema, WorkerDataSchema } from '../types.js';
import { messageProblem, readJsonLines } from './json-lines.js';
import type { TeammatePort } from './types.js';

/** How long a teammate whose channel dropped may take to stop before the process ends anyway. */
const DROPPED_STOP_MS = 5_000;
export const EXIT_BAD_LINE = 2;
export const EXIT_CHANNEL_DROPPED = 3;

/** Runs a teammate on this process's stdin and stdout until it stops. */
export function runStdioTeammate(): void {
  const out = process.stdout;
  const write = out.write.bind(out);
  // Only protocol lines go to stdout: a stray console.log would break the channel.
  process.stdout.write = process.stderr.write.bind(process.stderr);
  const listeners: ((raw: unknown) => void)[] = [];
  let started = false;
  const port: TeammatePort = {
    postMessage: (m) => void write(JSON.stringify(m) + '\n'),
    on: (_event, fn) => listeners.push(fn),
    close: () => void write('', () => process.exit(0)),
  };
  readJsonLines(process.stdin, {
    value: (value, line) => {
      if (started) {
        const problem = messageProblem(ToWorkerSchema, value, line);
        if (problem !== undefined) crash(`teamd teammate --stdio: stdin ${problem}`, EXIT_BAD_LINE);
        return listeners.forEach((fn) => fn(value));
      }
      const data = WorkerDataSchema.safeParse(value);
      if (!data.success) crash(`teamd teammate --stdio: stdin line 1 is not the teammate's data: ${z.prettifyError(data.error).replace(/\n/g, '; ')}`, EXIT_BAD_LINE);
      started = true;
      runTeammate(port, value).catch((error: unknown) => crash(`the teammate failed: ${(error as Error).stack ?? String(error)}`, 1));
    },
    broken: (reason) => crash(`teamd teammate --stdio: stdin ${reason}`, EXIT_BAD_LINE),
  });
  process.stdin.on('end', () =>
    started ? dropped(listeners) : crash('teamd teammate --stdio: stdin closed before the teammate\'s data came', EXIT_CHANNEL_DROPPED),
  );
}

function dropped(listeners: ((raw: unknown) => void)[]): void {
  process.stderr.write('teamd teammate --stdio: the channel to the lead closed; stopping\n');
  for (const fn of listeners) fn({ type: 'stop', reason: 'the channel to the lead closed' });
  // With the lead gone nothing can be written anyway: do not wait long on work in flight.
  setTimeout(() => process.exit(EXIT_CHANNEL_DROPPED), DROPPED_STOP_MS);
}

function crash(message: string, code: number): never {
  process.stderr.write(message + '\n');
  process.exit(code);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) runStdioTeammate();
