import { readFileSync } from 'node:fs';
import { waitFor } from '../../store/temp-repo.js';

/** The state letter of a process in /proc (T: stopped). */
export function processState(pid: number): string {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
}

/** Resolves once `pid` is stopped (SIGSTOP took effect). */
export const untilStopped = (pid: number): Promise<void> =>
  waitFor(() => processState(pid) === 'T', `process ${pid} to stop`, 10_000);
