import type { LoggedEvent } from './types.js';

/** One readable line per team event (progress output, `teamd logs --events`); null for noise. */
export function formatEvent(e: LoggedEvent): string | null {
  switch (e.type) {
    case 'daemon_started':
      return `lead started (pid ${e.pid}) with ${e.teammates.join(', ') || 'no teammates yet'}`;
    case 'daemon_stopping':
      return `lead stopping: ${e.reason}`;
    case 'daemon_stopped':
      return 'lead stopped';
    case 'task_claimed':
      return `${e.agent} claimed ${e.task}${e.attempt > 1 ? ` (attempt ${e.attempt})` : ''}`;
    case 'task_completed':
      return `✔ ${e.task} completed by ${e.agent}: ${firstLine(e.summary)}`;
    case 'task_failed':
      return `✘ ${e.task} failed (${e.agent}): ${firstLine(e.error)}`;
    case 'task_released':
      return `${e.agent} released ${e.task}: ${e.reason}`;
    case 'task_reclaimed':
      return `${e.task} reclaimed from ${e.previousOwner ?? 'an expired lease'}${e.failed ? ' — failed after too many attempts' : ''}`;
    case 'task_problem':
      return `problem in ${e.file}: ${e.message}`;
    case 'message_sent':
      return e.messageType === 'task_completed' || e.messageType === 'idle_notification'
        ? null
        : `${e.from} → ${e.to}: ${e.messageType}`;
    case 'teammate_crashed':
      return `${e.agent} crashed; restarting in ${e.restartInMs} ms: ${firstLine(e.error)}`;
    case 'teammate_restarted':
      return `${e.agent} restarted (${e.restarts})`;
    case 'worktree_created':
      return `worktree for ${e.task} on ${e.branch}`;
    case 'worktree_failed':
      return `worktree for ${e.task} failed: ${firstLine(e.error)}`;
    case 'merge_queued':
      return `${e.task} queued for merge`;
    case 'merge_merged':
      return `merged ${e.task} (${e.commit.slice(0, 8)})`;
    case 'merge_refused':
      return `merge of ${e.task} refused (${e.reason}): ${firstLine(e.detail)}`;
    case 'review_requested':
      return `${e.task} waits for a review by ${e.mode === 'human' ? 'a person (teamd review)' : 'the reviewer agent'}${e.reason ? `: ${firstLine(e.reason)}` : ''}`;
    case 'review_answered':
      return `${e.task} ${e.accepted ? 'accepted' : 'rejected'} in review by ${e.by}${e.reason ? `: ${firstLine(e.reason)}` : ''}`;
    case 'approval_requested':
      return `${e.agent} waits for approval ${e.requestId}: ${firstLine(e.summary)}`;
    case 'approval_answered':
      return `${e.requestId} ${e.approved ? 'approved' : 'rejected'} by ${e.by}`;
    case 'approval_expired':
      return `${e.requestId} expired (denied)`;
    case 'team_finished':
      return `team finished: ${e.completed} completed, ${e.failed} failed, ${e.cancelled} cancelled`;
    case 'team_paused':
      return `⏸ team paused (${e.kind}): ${e.reason}${e.until ? `; retrying at ${e.until}` : ''}`;
    case 'team_resumed':
      return `▶ team resumed (${e.by})`;
    case 'cron_event':
      return `cron: ${String(e.detail.type)}${typeof e.detail.jobId === 'string' ? ` ${e.detail.jobId}` : ''}`;
    case 'notice':
      return `${e.agent ? `${e.agent}: ` : ''}${e.message}`;
    default:
      return null;
  }
}

const firstLine = (s: string): string => {
  const line = s.split('\n')[0] ?? '';
  return line.length > 160 ? `${line.slice(0, 160)}…` : line;
};
