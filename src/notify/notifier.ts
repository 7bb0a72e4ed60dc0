import { resolve } from 'node:path';
import type { TeamConfig } from '../config/schema.js';
import { terminalSafe, terminalSafeLine } from '../observe/terminal-safe.js';
import type { LoggedEvent } from '../observe/types.js';
import { sendDesktopNotification } from './desktop.js';
import { needsYou } from './needs-you.js';
import type { NeedsYou, Notifier, NotifierOptions, WebhookPayload } from './types.js';
import { postWebhook } from './webhook.js';

export function webhookPayload(n: NeedsYou, repo: string): WebhookPayload {
  return {
    source: 'teamd',
    kind: n.kind,
    title: n.title,
    text: `${n.title}\n${n.text}`,
    repo,
    agent: n.agent ?? null,
    task: n.task ?? null,
    ts: n.event.ts,
    event: n.event,
  };
}

/**
 * A notifier for the team of `config`. The lead subscribes `onEvent` to its
 * events; `teamd top` makes one with only a bell. Sending never blocks the
 * caller and never throws: failures go to `onError`.
 */
export function createNotifier(
  config: Pick<TeamConfig, 'notifications'>,
  options: NotifierOptions = {},
): Notifier {
  const repo = resolve(options.repoRoot ?? '.');
  const desktop = options.desktop ?? config.notifications.desktop;
  const webhook = options.webhook === undefined ? config.notifications.webhook : options.webhook;
  const onError = options.onError ?? ((m: string) => process.stderr.write(`teamd: warning: ${terminalSafeLine(m)}\n`));
  const pending = new Set<Promise<void>>();

  const post = (url: string, n: NeedsYou): void => {
    const sent = postWebhook(url, webhookPayload(n, repo), options.webhookTimeoutMs).then((r) => {
      if (!r.ok) onError(r.error);
    });
    pending.add(sent);
    void sent.finally(() => pending.delete(sent));
  };

  const notify = (n: NeedsYou): void => {
    options.bell?.();
    if (desktop) {
      const urgency = n.kind === 'team_finished' ? 'normal' : 'critical';
      // The text quotes the repository (a failed task's error, a request's summary): no control reaches the popup.
      sendDesktopNotification(terminalSafeLine(n.title), terminalSafe(n.text), { command: options.desktopCommand, urgency, onError });
    }
    if (webhook) post(webhook, n);
  };

  return {
    notify,
    onEvent(e: LoggedEvent) {
      const n = needsYou(e);
      if (n) notify(n);
      return n;
    },
    async flush() {
      while (pending.size) await Promise.all([...pending]);
    },
  };
}
