/** What `start` and `run` share: their options, progress lines and the signal that ends them. */
import type { HostConfig } from '../config/schema.js';
import { formatEvent } from '../observe/format-event.js';
import type { LoggedEvent } from '../observe/types.js';
import { fail } from './cli-error.js';
import { printRecordLine } from './output.js';
import type { DirOption } from './repo-dir.js';

export interface StartOptions extends DirOption {
  foreground?: boolean;
  teammates?: string;
  model?: string;
  record?: string;
  /** `--host KIND` (start): where every teammate runs. */
  host?: string;
}

/** `--host`'s value as the config override takes it (checked there: an unknown kind is refused, naming the flag). */
export const hostKindOf = (kind?: string): HostConfig['kind'] | undefined => kind as HostConfig['kind'] | undefined;

export const teammatesOf = (n?: string): number | undefined => {
  if (n === undefined) return undefined;
  const v = Number(n);
  return Number.isInteger(v) && v >= 0 && v <= 64
    ? v
    : fail(`--teammates: must be a whole number from 0 to 64, got "${n}"`);
};

export const printEvent = (started: number) => (e: LoggedEvent) => {
  const line = formatEvent(e);
  if (line) printRecordLine(`[${((Date.now() - started) / 1000).toFixed(1).padStart(6)}s] ${line}`);
};

/**
 * Resolves on SIGINT or SIGTERM (the graceful stop of `teamd stop`). The
 * handlers stay installed for the rest of the process: execa (through
 * signal-exit) re-raises a signal when it finds no other listener, which would
 * kill the daemon in the middle of its graceful stop.
 */
export function untilSignal(): Promise<void> {
  return new Promise((resolve) => {
    let seen = 0;
    const onSignal = () => {
      seen++;
      if (seen === 1) resolve();
      else process.stderr.write('teamd: still stopping gracefully; send SIGKILL to stop at once\n');
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  });
}
