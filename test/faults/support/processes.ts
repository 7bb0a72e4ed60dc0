/**
 * Processes left behind by a killed daemon: anything (but us) whose working
 * directory or command line is inside the temp repository.
 */
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

export interface Straggler {
  pid: number;
  cmdline: string;
}

export function processesInside(dir: string, except: readonly number[] = []): Straggler[] {
  const found: Straggler[] = [];
  for (const entry of readdirSync('/proc')) {
    const pid = Number(entry);
    if (!Number.isInteger(pid) || pid === process.pid || except.includes(pid)) continue;
    try {
      const cwd = readlinkSync(`/proc/${pid}/cwd`);
      const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ').trim();
      if (cwd.startsWith(dir) || cmdline.includes(dir)) found.push({ pid, cmdline });
    } catch {
      // gone, or not ours to read
    }
  }
  return found;
}

/** Waits (polling) until no process is inside `dir`; resolves with what is still there after `timeoutMs`. */
export async function untilNoProcessInside(dir: string, timeoutMs: number): Promise<Straggler[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const left = processesInside(dir);
    if (left.length === 0 || Date.now() > deadline) return left;
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The teammates' status files say every one of `names` is idle, written by the lead with this pid. */
export function teammatesIdle(statusDir: string, names: readonly string[], pid: number): boolean {
  return names.every((name) => {
    try {
      const status = JSON.parse(readFileSync(`${statusDir}/${name}.json`, 'utf8')) as {
        state?: string;
        pid?: number;
      };
      return status.state === 'idle' && status.pid === pid;
    } catch {
      return false;
    }
  });
}
