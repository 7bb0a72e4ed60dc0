/**
 * The task lines of `teamd status` that point at a next step: failed tasks
 * with their reason, and pending tasks held up by a failed or cancelled one.
 */
import { join } from 'node:path';
import { failureReason, type TeamStatus } from '../observe/status.js';
import { teamPaths } from '../store/paths.js';
import { FILE_LIMITS, readTeamFile } from '../store/team-file.js';
import { TaskSchema } from '../store/types.js';
import { oneLine } from './output.js';

type TaskLine = TeamStatus['tasks']['list'][number];

/** How many ids a line names before "and N more" (a task may wait on 100,000). */
const SHOWN = 5;
const firstOf = (ids: readonly string[]): string =>
  ids.length <= SHOWN ? ids.join(', ') : `${ids.slice(0, SHOWN).join(', ')} and ${ids.length - SHOWN} more`;

const retryHint = (id: string): string => `teamd task retry ${id}`;

/** Why each failed task failed, read from its file (a handful of files, not the whole folder). */
export async function failureReasons(repoRoot: string, ids: readonly string[]): Promise<Map<string, string>> {
  const reasons = new Map<string, string>();
  for (const id of ids) {
    try {
      // Through the safe reader: the file may have been swapped for a link or a FIFO since it was listed.
      const read = await readTeamFile(
        join(teamPaths(repoRoot).tasks, `${id}.json`),
        `task ${id}`,
        FILE_LIMITS.task,
      );
      if (read.kind !== 'text') throw new Error('not readable');
      const task = TaskSchema.parse(JSON.parse(read.text));
      reasons.set(id, failureReason(task));
    } catch {
      reasons.set(id, 'its file cannot be read (see the problems below)');
    }
  }
  return reasons;
}

/** `failed: X — reason. Next: teamd task retry X (or teamd task show X)`, one per failed task. */
export function failedLines(list: readonly TaskLine[], reasons: ReadonlyMap<string, string>): string[] {
  const failed = list.filter((t) => t.status === 'failed');
  if (!failed.length) return [];
  return [
    'failed:',
    ...failed.map(
      (t) =>
        `  ${t.id} ${oneLine(t.subject, 50)} — ${oneLine(reasons.get(t.id) ?? '?', 80)}; next: ${retryHint(t.id)} (details: teamd task show ${t.id})`,
    ),
  ];
}

/** What a pending task waits for, naming a failed or cancelled blocker and how to unblock it. */
export function waitingText(t: TaskLine, byId: ReadonlyMap<string, TaskLine>): string {
  if (t.ready) return 'ready';
  const stuck = (id: string): string | undefined => {
    const status = byId.get(id)?.status;
    return status === 'failed' || status === 'cancelled' ? status : undefined;
  };
  const open = t.waitingFor.filter((id) => !stuck(id));
  const stuckIds = t.waitingFor.filter((id) => stuck(id));
  const parts = stuckIds.slice(0, SHOWN).map((id) => `blocked by ${stuck(id)} ${id} (\`${retryHint(id)}\`)`);
  if (stuckIds.length > SHOWN) parts.push(`and ${stuckIds.length - SHOWN} more failed or cancelled`);
  if (open.length) parts.push(`waiting for ${firstOf(open)}`);
  return parts.join('; ');
}
