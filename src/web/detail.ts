/**
 * A task's detail view: the task file, the diff its branch would bring into
 * the integration branch (the review diff of `teamd review <id>`), and the
 * transcript of the session that worked on it.
 */
import type { TeamConfig } from '../config/schema.js';
import { reviewDiff } from '../git/review-diff.js';
import { TaskStore } from '../store/tasks/index.js';
import type { Task } from '../store/types.js';
import { readTranscript } from './transcript.js';
import type { WireTaskDetail } from './wire.js';

const branchOf = (t: Task): string => {
  const merge = t.metadata.merge as { branch?: unknown } | undefined;
  return typeof merge?.branch === 'string' ? merge.branch : (t.result?.branch ?? `teamd/${t.id}`);
};

function taskPart(t: Task): WireTaskDetail['task'] {
  return {
    id: t.id,
    subject: t.subject,
    description: t.description,
    status: t.status,
    owner: t.owner,
    blockedBy: t.blockedBy,
    attempts: t.attempts,
    notes: t.notes,
    result: t.result && { summary: t.result.summary, error: t.result.error ?? null },
    merge: (t.metadata.merge as { state?: string } | undefined)?.state ?? null,
    createdAt: t.createdAt,
    updatedAt: t.updatedAt,
  };
}

/** The detail of task `id` (an id already checked against ID_PATTERN), or null when the board has no such task. */
export async function taskDetail(repoRoot: string, config: TeamConfig, id: string): Promise<WireTaskDetail | null> {
  const store = await TaskStore.open(repoRoot, { normalise: false });
  const task = store.get(id);
  if (!task) return null;
  const diff = await reviewDiff(repoRoot, config.worktrees.integrationBranch, branchOf(task));
  const transcript = task.owner ? await readTranscript(repoRoot, config, task.owner, task.id) : null;
  return {
    task: taskPart(task),
    diff: diff.ok ? { ok: true, text: diff.value } : { ok: false, error: diff.error },
    transcript: transcript?.session ? transcript : null,
  };
}
