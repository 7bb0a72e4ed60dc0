import { openSync, closeSync, writeSync, rmSync, mkdirSync } from 'node:fs';
import { textDepthProblem } from '../store/json-bounds.js';
import { STATE_LIMITS, stateLabel } from '../store/state-file.js';
import { readTeamFileSync } from '../store/team-file.js';
import { join } from 'node:path';
import { z } from 'zod';
import { isAlive, isGone, ownIdentity, type ProcessIdentity } from '../store/process-identity.js';

export { isAlive } from '../store/process-identity.js';

export const pidFilePath = (repoRoot: string): string => join(repoRoot, '.team', 'state', 'lead.pid');

export type PidLock = { ok: true; release: () => void } | { ok: false; pid: number; error: string };

/**
 * `lead.pid`: one JSON line naming the lead process, with its start time, so
 * that a pid reused by an unrelated process after the lead died (a reboot, a
 * SIGKILL long ago) is not taken for a running lead. The `teamd` marker tells
 * it from any other file. A bare pid (the format of older versions) is still
 * read: its process counts as the lead while it lives.
 */
const LeadRecordSchema = z.object({
  teamd: z.literal('lead'),
  pid: z.number().int().positive(),
  start: z.string().nullable(),
  host: z.string(),
});

/** The lead the file names: its identity when recorded, else only a pid; null when the file says nothing usable. */
function readRecord(file: string): { pid: number; identity: ProcessIdentity | null } | null {
  // Through the safe reader: a FIFO or a /dev/zero link put here must not hang or fill the lead.
  const read = readTeamFileSync(file, stateLabel(file), STATE_LIMITS.small);
  if (read.kind !== 'text') return null;
  const text = read.text.trim();
  if (textDepthProblem(text) !== undefined) return null;
  if (/^\d+$/.test(text)) return { pid: Number(text), identity: null };
  try {
    const parsed = LeadRecordSchema.safeParse(JSON.parse(text));
    return parsed.success ? { pid: parsed.data.pid, identity: parsed.data } : null;
  } catch {
    return null;
  }
}

/** The pid of the running lead of this repository, or null (none, or the recorded process is gone or another one). */
export function runningLeadPid(repoRoot: string): number | null {
  const record = readRecord(pidFilePath(repoRoot));
  if (record === null || record.pid === process.pid) return null;
  const running = record.identity ? !isGone(record.identity) : isAlive(record.pid);
  return running ? record.pid : null;
}

/**
 * One lead per repository. The pid file is created exclusively (O_EXCL), so two
 * leads starting at once cannot both win; a file left by a dead lead (SIGKILL)
 * is recognised by its process being gone (or its pid now naming a process
 * started at another time) and replaced.
 */
export function acquirePidLock(repoRoot: string): PidLock {
  const file = pidFilePath(repoRoot);
  mkdirSync(join(repoRoot, '.team', 'state'), { recursive: true });
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = openSync(file, 'wx');
      writeSync(fd, `${JSON.stringify({ teamd: 'lead', ...ownIdentity() })}\n`);
      closeSync(fd);
      return { ok: true, release: () => releaseIfOurs(file) };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const holder = runningLeadPid(repoRoot);
      if (holder !== null) {
        return { ok: false, pid: holder, error: `teamd is already running in ${repoRoot} (pid ${holder})` };
      }
      rmSync(file, { force: true, recursive: true }); // stale: its lead is gone (or not a lead's file at all)
    }
  }
  return { ok: false, pid: 0, error: `could not take the pid lock ${file}` };
}

function releaseIfOurs(file: string): void {
  if (readRecord(file)?.pid === process.pid) rmSync(file, { force: true });
}
