/**
 * The lead's cron: the scheduler over `.cron/`, delivering each fire as a
 * `cron` message to its target — a teammate, `lead`, or `any` (the first
 * idle teammate; deferred until one is idle).
 */
import type { TeamConfig } from '../config/schema.js';
import { systemClock } from '../cron/clock.js';
import { cronMessageId, cronMessageMetadata } from '../cron/message.js';
import { CronScheduler } from '../cron/scheduler.js';
import type { Clock, DeliveryResult } from '../cron/types.js';
import type { TeamEvent } from '../observe/types.js';
import { CronStore } from '../store/cron/index.js';
import type { MailboxStore } from '../store/mailbox/index.js';
import type { CronJob } from '../store/types.js';
import type { TeammatePool } from './pool.js';

export interface LeadCronDeps {
  repoRoot: string;
  config: TeamConfig;
  mailbox: MailboxStore;
  pool: Pick<TeammatePool, 'firstIdle' | 'names'>;
  log: (e: TeamEvent) => void;
  clock?: Clock;
}

export class LeadCron {
  readonly store: CronStore;
  readonly scheduler: CronScheduler;

  constructor(private readonly deps: LeadCronDeps) {
    this.store = new CronStore(deps.repoRoot);
    this.scheduler = new CronScheduler({
      source: this.store,
      clock: deps.clock ?? systemClock,
      deliver: (job, slot) => this.deliver(job, slot),
      onEvent: (e) => deps.log({ type: 'cron_event', detail: e as unknown as Record<string, unknown> }),
      validTargets: () => deps.config.teammates.map((t) => t.name),
    });
  }

  start(): Promise<void> {
    return this.scheduler.start();
  }

  reload(jobId: string): Promise<void> {
    return this.scheduler.reload(jobId);
  }

  teammateIdle(): void {
    void this.scheduler.onTeammateIdle();
  }

  stop(): void {
    void this.scheduler.stop();
  }

  private async deliver(job: CronJob, slot: Date): Promise<DeliveryResult> {
    const to = job.to === 'any' ? this.deps.pool.firstIdle() : job.to;
    if (!to) return 'deferred';
    const sent = await this.deps.mailbox.send({
      from: 'cron',
      to,
      type: 'cron',
      content: job.prompt,
      metadata: { ...cronMessageMetadata(job, slot), cronMessageId: cronMessageId(job.id, slot) },
    });
    if (!sent.ok) throw new Error(sent.error);
    this.deps.log({ type: 'message_sent', id: sent.value.id, from: 'cron', to, messageType: 'cron' });
    return 'delivered';
  }
}
