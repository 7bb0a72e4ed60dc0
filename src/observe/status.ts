/**
 * `teamd status`: the team as the files say it is. Works with or without a
 * running daemon. A teammate whose lead is gone, or whose heartbeat is older
 * than `stallAfterMs`, is shown as dead or stalled, never as idle.
 */
import type { TeamConfig } from '../config/schema.js';
import { nextFireAt } from '../cron/next-fire.js';
import { mergeQueuePath, readMergeQueueFile } from '../git/merge-queue-file.js';
import { readPause, type PauseState } from '../lead/pause-file.js';
import { runningLeadPid } from '../lead/pid-lock.js';
import { CronStore } from '../store/cron/index.js';
import { MailboxStore } from '../store/mailbox/index.js';
import { summaryCacheOf } from '../store/mailbox/archive-summary.js';
import { BoardReadCache } from '../store/tasks/board-cache.js';
import { checkStatusBoard, saveStatusBoard, type TaskLine } from './status-board.js';
import { TaskStore } from '../store/tasks/index.js';
import { teamFolderProblems } from '../store/team-folders.js';
import { recentHookFailures } from '../hooks/failure-log.js';
import type { FileProblem, Task, TaskStatus } from '../store/types.js';
import { listRequests, type PendingRequest } from '../teammate/requests.js';
import { readAgentStatuses } from '../teammate/status-file.js';

export type Liveness =
  'starting' | 'idle' | 'working' | 'waiting' | 'stopping' | 'stopped' | 'stalled' | 'dead';

export interface TeamStatus {
  /** `paused`: the team takes no new work until `teamd resume` (or an outage's retry time): see lead/pause-file.ts. */
  lead: { running: boolean; pid: number | null; paused?: PauseState | null };
  teammates: {
    name: string;
    state: Liveness;
    task: string | null;
    heartbeatAgeMs: number | null;
    turns: number;
    tokens: { input: number; output: number; cacheRead: number; cacheWrite: number };
    costUsd: number;
    model: string;
  }[];
  tasks: {
    counts: Record<TaskStatus, number>;
    /** One line per task (see `TaskLine`). */
    list: TaskLine[];
    problems: FileProblem[];
  };
  inboxes: Record<string, number>;
  cron: { id: string; cron: string; to: string; next: string | null; done: boolean }[];
  merges: { taskId: string; state: string; detail: string | null }[];
  approvals: PendingRequest[];
  /** Problems outside `.tasks/`: team folders that are links, bad inboxes and cron files (the CLI adds the config's). */
  problems: FileProblem[];
}

function liveness(state: string, ageMs: number, leadRunning: boolean, stallAfterMs: number): Liveness {
  if (state === 'stopped') return 'stopped';
  if (!leadRunning) return 'dead';
  if (ageMs > stallAfterMs) return 'stalled';
  return state as Liveness;
}

export interface StatusSections {
  /**
   * `teamd top` shows neither the inbox sizes nor the problems (its mail panel
   * reads the inboxes itself): without them a refresh scans no mailbox files
   * twice over (issue 24). `inboxes` is then `{}` and `problems` only the cron files'.
   */
  inboxesAndProblems?: boolean;
  /**
   * `false`: the task section holds the counts only, no line per task and no
   * board problems (`teamd top` draws its own graph from the board and shows
   * neither): at 10,000 tasks the lines were 10,000 objects a refresh, garbage
   * at once, that a dashboard's small young generation promotes (issue 24).
   */
  taskLines?: boolean;
}

/** `tasks`: a board kept current by the caller (`teamd top`), instead of reading every task file again. */
export async function readTeamStatus(
  repoRoot: string,
  config: TeamConfig,
  now = Date.now(),
  tasks?: TaskStore,
  sections: StatusSections = {},
): Promise<TeamStatus> {
  const all = sections.inboxesAndProblems ?? true;
  const pid = runningLeadPid(repoRoot);
  const statuses = readAgentStatuses(repoRoot);
  const teammates = config.teammates.map((t) => {
    const s = statuses.find((x) => x.name === t.name);
    const age = s ? now - Date.parse(s.heartbeat) : null;
    return {
      name: t.name,
      state: s
        ? liveness(s.state, age!, pid !== null, config.stallAfterMs)
        : pid
          ? ('starting' as const)
          : ('stopped' as const),
      task: s?.task ?? null,
      heartbeatAgeMs: age,
      turns: s?.turns ?? 0,
      tokens: s?.tokens ?? { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
      costUsd: s?.costUsd ?? 0,
      model: s?.model ?? t.model ?? config.model,
    };
  });
  const mailbox = new MailboxStore(repoRoot, { summaryCache: summaryCacheOf(repoRoot) });
  // The sections read different files and only read them: their file system round trips overlap (each is a trip
  // through libuv's thread pool, ~170 in one status; one after another they cost wall time on a busy machine).
  const [cron, board, inboxes, merges, mailProblems] = await Promise.all([
    cronSection(repoRoot, now),
    !tasks ? boardSection(repoRoot) : (sections.taskLines ?? true) ? taskSection(tasks) : countSection(tasks),
    all ? mailbox.inboxSizes() : {},
    mergeSection(repoRoot, config),
    all ? mailbox.problems() : [],
  ]);
  return {
    lead: { running: pid !== null, pid, paused: pid !== null ? readPause(repoRoot) : null },
    teammates,
    tasks: board,
    inboxes,
    cron: cron.jobs,
    merges,
    approvals: listRequests(repoRoot, 'pending'),
    problems: all
      ? [...teamFolderProblems(repoRoot), ...mailProblems, ...cron.problems, ...hookProblems(repoRoot)]
      : cron.problems,
  };
}

/**
 * The task section for a one-shot status: the last one's when no task file
 * changed since (status-board.ts), else the board read again — task files
 * unchanged since the last status come from its cache (board-cache.ts).
 */
async function boardSection(repoRoot: string): Promise<TeamStatus['tasks']> {
  const began = Date.now();
  const check = checkStatusBoard(repoRoot, began);
  if (check.kept) return check.kept;
  const readCache = BoardReadCache.forRepo(repoRoot, check.stamps?.files);
  const store = await TaskStore.open(repoRoot, { normalise: false, readCache });
  await readCache.save();
  const section = taskSection(store);
  await saveStatusBoard(repoRoot, check, began, store.list(), section);
  return section;
}

/** Recent hooks that could not start (or failed): a hook that blocks nothing must still be seen. */
const hookProblems = (repoRoot: string): FileProblem[] =>
  recentHookFailures(repoRoot).map((f) => ({ file: '.claude/settings.json', field: `hooks.${f.event}`, message: `${f.agent}, ${f.ts}: ${f.message}` }));

/** Why a failed task failed, as `teamd status` reports it. */
export const failureReason = (t: Pick<Task, 'result'>): string =>
  t.result?.error ?? t.result?.summary ?? 'no reason recorded';

const emptyCounts = (): Record<TaskStatus, number> => ({
  pending: 0,
  in_progress: 0,
  completed: 0,
  failed: 0,
  cancelled: 0,
});

function taskSection(store: TaskStore): TeamStatus['tasks'] {
  const counts = emptyCounts();
  const list = store.list().map((t) => {
    counts[t.status]++;
    const merge = (t.metadata.merge as { state?: string } | undefined)?.state ?? null;
    const reason = t.status === 'failed' ? failureReason(t) : null;
    return {
      id: t.id,
      subject: t.subject,
      status: t.status,
      owner: t.owner,
      waitingFor: store.blockers(t.id),
      ready: store.isReady(t.id),
      merge,
      reason,
    };
  });
  return { counts, list, problems: store.problems() };
}

/** The task section with the counts only: no object per task. */
function countSection(store: TaskStore): TeamStatus['tasks'] {
  const counts = emptyCounts();
  for (const t of store.list()) counts[t.status]++;
  return { counts, list: [], problems: [] };
}

async function cronSection(
  repoRoot: string,
  now: number,
): Promise<{ jobs: TeamStatus['cron']; problems: FileProblem[] }> {
  const { jobs, problems } = await new CronStore(repoRoot).list();
  const shown = jobs.map((j) => {
    const next = j.done ? null : nextFireAt(j, new Date(now));
    return { id: j.id, cron: j.cron, to: j.to, next: next ? next.toISOString() : null, done: j.done };
  });
  return { jobs: shown, problems };
}

async function mergeSection(repoRoot: string, config: TeamConfig): Promise<TeamStatus['merges']> {
  const file = await readMergeQueueFile(mergeQueuePath(repoRoot), config.worktrees.integrationBranch);
  if (!file.ok) return [];
  return file.value.entries.map((e) => ({
    taskId: e.taskId,
    state: e.state,
    detail: e.refusal?.message ?? e.mergeCommit,
  }));
}
