/**
 * Needs-you notifications: the few moments a person should look at the team
 * (a permission or plan waits for approval, a finished task waits for a
 * person's review, a task failed, a teammate died, the team paused for a
 * refused key or a spent budget, the team finished). Routine events (claims, merges, messages) never notify.
 * A notification goes to every channel that is on: a terminal bell (in
 * `teamd top`), a desktop notification (`notify-send`, when installed) and a
 * JSON POST to the webhook URL of `.team/config.json` (`notifications.webhook`).
 */
import type { LoggedEvent } from '../observe/types.js';

export type NeedsYouKind =
  'approval' | 'review' | 'task_failed' | 'teammate_died' | 'team_paused' | 'team_finished';

export interface NeedsYou {
  kind: NeedsYouKind;
  /** Short, for a desktop notification's title: `teamd: approval needed`. */
  title: string;
  /** One or two lines saying what happened and what to do. */
  text: string;
  agent?: string;
  task?: string;
  /** The team event it came from. */
  event: LoggedEvent;
}

/**
 * The JSON body POSTed to the webhook. `text` alone is what chat tools with
 * Slack-style incoming webhooks display; the other fields are for scripts.
 */
export interface WebhookPayload {
  source: 'teamd';
  kind: NeedsYouKind;
  title: string;
  text: string;
  /** The repository the team works on (absolute path). */
  repo: string;
  agent: string | null;
  task: string | null;
  /** When the event happened (ISO 8601). */
  ts: string;
  event: LoggedEvent;
}

export interface NotifierOptions {
  /** Named in webhook payloads; default the current directory. */
  repoRoot?: string;
  /** Rings the terminal bell (`teamd top` passes one); no bell when absent. */
  bell?: () => void;
  /** Desktop notifications; default `config.notifications.desktop`. */
  desktop?: boolean;
  /** The desktop notification program; default `notify-send` from PATH. */
  desktopCommand?: string;
  /** The webhook URL; default `config.notifications.webhook`; null turns it off. */
  webhook?: string | null;
  /** How long a webhook POST may take before it is abandoned (default 5000 ms). */
  webhookTimeoutMs?: number;
  /** Where failures to notify go (never thrown); default a warning on stderr. */
  onError?: (message: string) => void;
}

export interface Notifier {
  /** Notifies when `e` needs a person; returns what was sent, or null for routine events. */
  onEvent(e: LoggedEvent): NeedsYou | null;
  /** Sends one notification on every channel that is on, without waiting for it. */
  notify(n: NeedsYou): void;
  /** Resolves when every webhook POST started so far has finished (call before exiting). */
  flush(): Promise<void>;
}
