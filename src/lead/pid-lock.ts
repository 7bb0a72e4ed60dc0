import { openSync, closeSync, writeSync, readFileSync, rmSync, mkdirSync, existsSync } from 'node:fs';
import { join } from 'node:path';

export const pidFilePath = (repoRoot: string): string => join(repoRoot, '.team', 'state', 'lead.pid');

export type PidLock = { ok: true; release: () => void } | { ok: false; pid: number; error: string };

/** True when a process with this pid exists (EPERM: exists but is not ours). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The pid of the running lead of this repository, or null. */
export function runningLeadPid(repoRoot: string): number | null {
  const file = pidFilePath(repoRoot);
  if (!existsSync(file)) return null;
  const pid = Number.parseInt(readFileSync(file, 'utf8').trim(), 10);
  return Number.isInteger(pid) && pid > 0 && isAlive(pid) && pid !== process.pid ? pid : null;
}

/**
 * One lead per repository. The pid file is created exclusively (O_EXCL), so two
 * leads starting at once cannot both win; a file left by a dead lead (SIGKILL)
 * is recognised by its pid no longer existing and replaced.
 */
export function acquirePidLock(repoRoot: string): PidLock {
  const file = pidFilePath(repoRoot);
  mkdirSync(join(repoRoot, '.team', 'state'), { recursive: true });
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = openSync(file, 'wx');
      writeSync(fd, `${process.pid}\n`);
      closeSync(fd);
      return { ok: true, release: () => releaseIfOurs(file) };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const holder = runningLeadPid(repoRoot);
      if (holder !== null) {
        return { ok: false, pid: holder, error: `teamd is already running in ${repoRoot} (pid ${holder})` };
      }
      rmSync(file, { force: true }); // stale: its lead is gone
    }
  }
  return { ok: false, pid: 0, error: `could not take the pid lock ${file}` };
}

function releaseIfOurs(file: string): void {
  try {
    if (readFileSync(file, 'utf8').trim() === String(process.pid)) rmSync(file, { force: true });
  } catch {
    // already gone
  }
}
