import type { LoggedEvent } from '../observe/types.js';
import type { NeedsYou } from './types.js';

const firstLine = (s: string, max = 200): string => {
  const line = s.split('\n', 1)[0] ?? '';
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
};

/** The needs-you notification for a team event, or null when the event is routine. */
export function needsYou(e: LoggedEvent): NeedsYou | null {
  switch (e.type) {
    case 'approval_requested':
      return {
        kind: 'approval',
        title: `teamd: ${e.agent} waits for ${e.kind === 'plan' ? 'plan approval' : 'permission'}`,
        text: `${firstLine(e.summary)}\nteamd approve ${e.requestId}  /  teamd reject ${e.requestId}`,
        agent: e.agent,
        event: e,
      };
    case 'review_requested':
      if (e.mode !== 'human') return null;
      return {
        kind: 'review',
        title: `teamd: task ${e.task} waits for your review`,
        text: `${e.agent} finished it${e.reason ? ` (${firstLine(e.reason)})` : ''}\nteamd review ${e.task}  /  teamd accept ${e.task}  /  teamd reject ${e.task} --reason …`,
        agent: e.agent,
        task: e.task,
        event: e,
      };
    case 'task_failed':
      return {
        kind: 'task_failed',
        title: `teamd: task ${e.task} failed`,
        text: `${e.agent}: ${firstLine(e.error)}`,
        agent: e.agent,
        task: e.task,
        event: e,
      };
    case 'task_reclaimed':
      if (!e.failed) return null;
      return {
        kind: 'task_failed',
        title: `teamd: task ${e.task} failed`,
        text: `lost its owner ${e.attempts} times (last: ${e.previousOwner ?? 'unknown'}); it will not be retried`,
        task: e.task,
        event: e,
      };
    case 'teammate_crashed':
      return {
        kind: 'teammate_died',
        title: `teamd: ${e.agent} crashed`,
        text: `${firstLine(e.error)}\nrestart ${e.restarts} in ${Math.round(e.restartInMs / 1000)} s`,
        agent: e.agent,
        event: e,
      };
    case 'teammate_state':
      if (e.state !== 'dead') return null;
      return {
        kind: 'teammate_died',
        title: `teamd: ${e.agent} died`,
        text: `${e.agent} stopped responding${e.task ? ` while on ${e.task}` : ''}`,
        agent: e.agent,
        task: e.task ?? undefined,
        event: e,
      };
    case 'team_paused':
      // An outage pause ends by itself after its wait; a refused key or a spent budget waits for a person.
      if (e.kind === 'outage') return null;
      return {
        kind: 'team_paused',
        title: `teamd: the team is paused (${e.kind})`,
        text: `${firstLine(e.reason, 400)}\nteamd status  /  teamd resume`,
        event: e,
      };
    case 'team_finished':
      return {
        kind: 'team_finished',
        title: 'teamd: the team finished',
        text: `${e.completed} completed, ${e.failed} failed, ${e.cancelled} cancelled`,
        event: e,
      };
    default:
      return null;
  }
}
