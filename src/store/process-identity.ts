import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';

/**
 * Who a process is, beyond its pid: a pid is reused once its process exits,
 * so a recorded pid alone may name an unrelated process. Its start time (from
 * `/proc/<pid>/stat`, in clock ticks since boot) tells the two apart.
 */
export interface ProcessIdentity {
  pid: number;
  /** `/proc/<pid>/stat` field 22; null where there is no /proc (the pid alone is then all we know). */
  start: string | null;
  host: string;
}

/** The start time of `pid`, or null (no such process, or no /proc). */
export function processStart(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) is in parentheses and may hold spaces: count from the last ')'.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null;
  } catch {
    return null;
  }
}

/** True when a process with this pid exists (EPERM: exists but is not ours). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

let self: ProcessIdentity | undefined;

/** This process. */
export const ownIdentity = (): ProcessIdentity =>
  (self ??= { pid: process.pid, start: processStart(process.pid), host: hostname() });

/**
 * Whether the process `who` names has gone: on this host, its pid no longer
 * exists, or now belongs to a process started at another time. False when it
 * cannot be told (another host).
 */
export function isGone(who: ProcessIdentity): boolean {
  if (who.host !== ownIdentity().host) return false;
  if (!isAlive(who.pid)) return true;
  const start = processStart(who.pid);
  return who.start !== null && start !== null && start !== who.start;
}
