import { lstatSync, readdirSync, type Stats } from 'node:fs';
import { join, relative } from 'node:path';
import { z } from 'zod';
import { readJsonSync } from './json-file.js';
import { teamPaths } from './paths.js';
import { isGone, type ProcessIdentity } from './process-identity.js';

/** What an owner file says about its process (written when the owner file is made). */
const HolderSchema = z.object({
  pid: z.number().int().positive(),
  start: z.string().nullable(),
  host: z.string(),
});

/** An owner file holds one small JSON record. */
const OWNER_FILE_LIMIT = 64 * 1024;

/** Clock skew allowed between the holder's refresh and our clock before an mtime counts as "in the future". */
const FUTURE_SLACK_MS = 1_000;

/** A lock entry whose mtime lies ahead of our clock: it looks fresh to everyone until the clock gets there. */
export const isFuture = (stats: Stats, now = Date.now()): boolean => stats.mtimeMs > now + FUTURE_SLACK_MS;

/** The process that holds the lock entry `path` (a hard link to its owner file), or null when it does not say. */
export function holderOf(path: string): ProcessIdentity | null {
  // Gone, a directory (a lock made by hand), an owner file of an older teamd (empty), or anything
  // hostile put in its place (a FIFO, a device link, deep JSON): refused unread through the safe reader.
  const read = readJsonSync(path, path, OWNER_FILE_LIMIT);
  if (read.kind !== 'ok') return null;
  const parsed = HolderSchema.safeParse(read.value);
  return parsed.success ? parsed.data : null;
}

/** A lock no writer will take over by itself, for `teamd validate` and `teamd status`. */
export interface StuckLock {
  /** Repo-relative, e.g. `.tasks/.locks/t1.json`. */
  file: string;
  /** The entry's mtime (in the future). */
  refreshedAt: string;
  holder: ProcessIdentity | null;
  message: string;
}

const LOCKS = '.locks';

/**
 * Lock entries of `.tasks`, `.mailboxes` and `.cron` whose mtime lies in the
 * future while their holder is alive or unknown: every claim or send on that
 * file fails as busy until the clock passes the mtime. (A holder that is gone
 * is taken over at the next attempt, so it is not reported.)
 */
export function stuckLocks(repoRoot: string, now = Date.now()): StuckLock[] {
  const paths = teamPaths(repoRoot);
  const stuck: StuckLock[] = [];
  for (const folder of [paths.tasks, paths.mailboxes, paths.cron]) {
    const dir = join(folder, LOCKS);
    for (const name of entriesOf(dir)) {
      const found = stuckEntry(join(dir, name), now);
      if (found) stuck.push({ ...found, file: relative(paths.root, join(dir, name)) });
    }
  }
  return stuck;
}

function stuckEntry(path: string, now: number): Omit<StuckLock, 'file'> | null {
  let stats: Stats;
  try {
    stats = lstatSync(path);
  } catch {
    return null;
  }
  if (!isFuture(stats, now)) return null;
  const holder = holderOf(path);
  if (holder !== null && isGone(holder)) return null;
  const refreshedAt = new Date(stats.mtimeMs).toISOString();
  const who = holder ? `pid ${holder.pid} on ${holder.host} (alive or on another host)` : 'an unknown holder';
  return {
    refreshedAt,
    holder,
    message: `lock held by ${who} with a refresh time in the future (${refreshedAt}): writers of this file wait until then; if no teamd process of this team is running, delete the entry`,
  };
}

/** For a busy lock's error: a note when the entry is stuck (its refresh time lies in the future). */
export function stuckHint(path: string): string {
  const stuck = stuckEntry(path, Date.now());
  return stuck ? `; ${path}: ${stuck.message} (teamd validate reports it)` : '';
}

/** Lock entries (not owner files, not takeover guards) in `dir`. */
function entriesOf(dir: string): string[] {
  try {
    return readdirSync(dir).filter((n) => !n.startsWith('.owner-') && !n.endsWith('.takeover'));
  } catch {
    return [];
  }
}
