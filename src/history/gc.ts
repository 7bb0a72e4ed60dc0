/**
 * `teamd gc`, and the lead's periodic run of it: finished tasks to the
 * archive, the event log, the daemon log and the mailbox archives rotated
 * and compressed, finished transcripts compressed, old segments deleted,
 * merged task branches pruned (unless `keepBranches`). Each step is safe to interrupt and to run again.
 */
import { basename, dirname } from 'node:path';
import type { TeamConfig } from '../config/schema.js';
import { mergeQueuePath, readMergeQueueFile } from '../git/merge-queue-file.js';
import { daemonLogPath } from '../observe/daemon-log.js';
import { eventLogPath } from '../observe/event-log.js';
import { listStems } from '../store/folder.js';
import { teamPaths } from '../store/paths.js';
import { TaskStore } from '../store/tasks/index.js';
import { deleteBranches, mergedTaskBranches } from './branches.js';
import { rotateLog } from './rotation.js';
import { compressTranscripts } from './transcripts.js';
import type { GcReport, LogRotation, RotationPolicy } from './types.js';

export interface GcOptions {
  dryRun?: boolean;
  now?: number;
  /** The lead's own store (its index then follows the moves at once); else one is opened. */
  tasks?: TaskStore;
  /**
   * Who writes the daemon log: the lead passes a function that reopens it
   * after the rotation; without one the daemon log rotates only when no lead runs.
   */
  reopenDaemonLog?: () => void;
  leadRunning?: boolean;
  /**
   * Prune merged task branches (default true). The lead passes false: it
   * deletes each branch after its merge (and leftovers at start) in its own
   * serial git lane, and a second git writer beside the merge queue would
   * race it for the refs.
   */
  branches?: boolean;
}

/** A writer moves to a rotated log's new file within a second (event-log.ts): five is plenty. */
const LOG_QUIET_MS = 5_000;
/** Mailbox archive writers are another helper's: a minute before a segment is compressed. */
const MAIL_QUIET_MS = 60_000;

export async function collectGarbage(
  repoRoot: string,
  config: TeamConfig,
  o: GcOptions = {},
): Promise<GcReport> {
  const now = o.now ?? Date.now();
  const report: GcReport = {
    dryRun: o.dryRun ?? false,
    archivedTasks: [],
    logs: [],
    branches: [],
    notes: [],
  };
  const tasks = o.tasks ?? (await TaskStore.open(repoRoot, { normalise: false }));
  report.archivedTasks = await archiveOldTasks(repoRoot, config, tasks, { now, dryRun: o.dryRun });
  report.logs.push(...(await rotateLogs(repoRoot, config, o, now, report.notes)));
  const sessions = await compressTranscripts(repoRoot, config.history.compressAfterMs, { now, dryRun: o.dryRun });
  if (sessions.compressed.length)
    report.logs.push({ file: '.team/state/transcripts', rotated: null, pruned: [], ...sessions });
  await pruneBranches(repoRoot, config, tasks, o, report);
  return report;
}

/** Finished tasks past `archiveTasksAfterMs` or beyond `keepFinishedTasks` to the archive; open merges stay. */
export async function archiveOldTasks(
  repoRoot: string,
  config: TeamConfig,
  tasks: TaskStore,
  o: { now?: number; dryRun?: boolean } = {},
): Promise<string[]> {
  const before = new Date((o.now ?? Date.now()) - config.history.archiveTasksAfterMs);
  const held = await openMerges(repoRoot, config);
  // An unreadable merge queue: by age only, as if no count were set (which tasks it holds is unknown).
  const keep = held ? config.history.keepFinishedTasks : Infinity;
  return tasks.archiveFinished(before, { dryRun: o.dryRun, keep, held: held ?? undefined });
}

const OPEN_MERGE: ReadonlySet<string> = new Set(['queued', 'merging', 'refused']);

/** Tasks the merge queue still works on or waits for a person on; null when the queue cannot be read. */
async function openMerges(repoRoot: string, config: TeamConfig): Promise<ReadonlySet<string> | null> {
  const read = await readMergeQueueFile(mergeQueuePath(repoRoot), config.worktrees.integrationBranch);
  if (!read.ok) return null;
  return new Set(read.value.entries.filter((e) => OPEN_MERGE.has(e.state)).map((e) => e.taskId));
}

function policyOf(config: TeamConfig, quietMs: number): RotationPolicy {
  const h = config.history;
  return {
    rotateBytes: h.rotateBytes,
    rotateAfterMs: h.rotateAfterMs,
    keepSegmentsMs: h.keepSegmentsMs,
    quietMs,
  };
}

async function rotateLogs(
  repoRoot: string,
  config: TeamConfig,
  o: GcOptions,
  now: number,
  notes: string[],
): Promise<LogRotation[]> {
  const base = { now, dryRun: o.dryRun, repoRoot };
  const logs = policyOf(config, LOG_QUIET_MS);
  const events = eventLogPath(repoRoot);
  const out = [await rotateLog(dirname(events), basename(events), logs, base)];
  const daemon = daemonLogPath(repoRoot);
  const keepDaemon = o.reopenDaemonLog === undefined && (o.leadRunning ?? false);
  if (keepDaemon) notes.push('the daemon log rotates in the running lead (its writer), not here');
  const daemonRotation = await rotateLog(dirname(daemon), basename(daemon), logs, {
    ...base,
    keepLive: keepDaemon,
  });
  if (daemonRotation.rotated && !o.dryRun) o.reopenDaemonLog?.();
  out.push(daemonRotation);
  const mail = { ...policyOf(config, MAIL_QUIET_MS), rotateAfterMs: config.history.compressAfterMs };
  const archive = teamPaths(repoRoot).archive;
  for (const agent of await listStems(archive, '.jsonl'))
    out.push(await rotateLog(archive, `${agent}.jsonl`, mail, base));
  return out;
}

async function pruneBranches(
  repoRoot: string,
  config: TeamConfig,
  tasks: TaskStore,
  o: GcOptions,
  report: GcReport,
): Promise<void> {
  if (o.branches === false) return;
  if (o.leadRunning) {
    report.notes.push('merged task branches are left to the running lead (it deletes each after its merge)');
    return;
  }
  const merged = await mergedTaskBranches(repoRoot, tasks, config.worktrees.integrationBranch);
  if (!merged.length) return;
  if (config.keepBranches) {
    report.notes.push(`${merged.length} merged task branch(es) kept (keepBranches)`);
    return;
  }
  if (o.dryRun) {
    report.branches = merged;
    return;
  }
  const done = await deleteBranches(repoRoot, merged);
  report.branches = done.deleted;
  report.notes.push(...done.notes);
}
