/** Needs-you notifications and stall reports: the public surface. */
export { createNotifier, webhookPayload } from './notifier.js';
export { needsYou } from './needs-you.js';
export { sendDesktopNotification } from './desktop.js';
export { postWebhook } from './webhook.js';
export { findStalls, lastProgressTimes, reportStalled, stallMessage, stallsPath } from './stall.js';
export type { Stall, StallReport } from './stall.js';
export type { NeedsYou, NeedsYouKind, Notifier, NotifierOptions, WebhookPayload } from './types.js';
