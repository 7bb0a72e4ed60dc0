/**
 * `.team/state/events.jsonl`: one line per state change of the team. Plain
 * objects with a `type`; `ts` is added when written. Readers (status, top,
 * logs, tests) skip lines they cannot parse, so a torn last line after a
 * crash never breaks them.
 */
export type TeamEvent =
  | { type: 'daemon_started'; pid: number; teammates: string[] }
  | { type: 'daemon_stopping'; reason: string }
  | { type: 'daemon_stopped' }
  | { type: 'task_claimed'; task: string; agent: string; attempt: number }
  | { type: 'task_completed'; task: string; agent: string; summary: string }
  | { type: 'task_failed'; task: string; agent: string; error: string }
  | { type: 'task_released'; task: string; agent: string; reason: string }
  | { type: 'task_reclaimed'; task: string; previousOwner: string | null; attempts: number; failed: boolean }
  | { type: 'task_problem'; file: string; message: string }
  | { type: 'message_sent'; id: string; from: string; to: string; messageType: string }
  | { type: 'message_delivered'; id: string; to: string }
  | { type: 'teammate_state'; agent: string; state: string; task: string | null }
  | { type: 'teammate_crashed'; agent: string; error: string; restartInMs: number; restarts: number }
  | { type: 'teammate_restarted'; agent: string; restarts: number }
  | { type: 'worktree_created'; task: string; path: string; branch: string }
  | { type: 'worktree_failed'; task: string; error: string }
  | { type: 'merge_queued'; task: string; branch: string }
  | { type: 'merge_merged'; task: string; commit: string }
  | { type: 'merge_refused'; task: string; reason: string; detail: string }
  | { type: 'review_requested'; task: string; agent: string; mode: 'human' | 'agent'; reason?: string }
  | { type: 'review_answered'; task: string; agent: string; accepted: boolean; by: string; reason: string }
  | { type: 'cron_event'; detail: Record<string, unknown> }
  | { type: 'approval_requested'; requestId: string; agent: string; kind: string; summary: string }
  | { type: 'approval_answered'; requestId: string; agent: string; approved: boolean; by: string }
  | { type: 'approval_expired'; requestId: string; agent: string }
  | { type: 'team_finished'; completed: number; failed: number; cancelled: number }
  /** No new work until resumed: the model refused the key (auth), the endpoint is down (outage, retried at `until`), or the budget is spent. */
  | { type: 'team_paused'; kind: 'auth' | 'outage' | 'budget'; reason: string; until?: string }
  | { type: 'team_resumed'; by: string }
  | { type: 'notice'; message: string; agent?: string };

export type LoggedEvent = TeamEvent & { ts: string };
