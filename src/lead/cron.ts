/**
 * The lead's cron: the scheduler over `.cron/`, delivering each fire as a
 * `cron` message to its target — a teammate, `lead`, or `any` (the first
 * idle teammate; deferred until one is idle).
 */
import type { TeamConfig } from '../config/schema.js';
import { systemClock } from '../cron/clock.js';
import { cronMessageId, cronMessageMetadata } from '../cron/message.js';
import { CronScheduler } from '../cron/scheduler.js';
import { cronToolService } from '../cron/tool-service.js';
import type { CronToolService } from '../tools/cron/types.js';
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

  /** `ctx.services.cron` for the lead agent's cron tools. */
  toolService(): CronToolService {
    return cronToolService({
      store: this.store,
      scheduler: this.scheduler,
      validTargets: () => this.deps.config.teammates.map((t) => t.name),
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
    const id = cronMessageId(job.id, slot);
    // A crash between sending and clearing pendingDelivery hands the same slot back: send it once.
    if (await this.alreadySent(job, id)) return 'delivered';
    const to = job.to === 'any' ? this.deps.pool.firstIdle() : job.to;
    if (!to) return 'deferred';
    const sent = await this.deps.mailbox.send({
      from: 'cron',
      to,
      type: 'cron',
      content: job.prompt,
      metadata: { ...cronMessageMetadata(job, slot), cronMessageId: id },
    });
    if (!sent.ok) throw new Error(sent.error);
    this.deps.log({ type: 'message_sent', id: sent.value.id, from: 'cron', to, messageType: 'cron' });
    return 'delivered';
  }

  /** Whether the fire `id` is already in a possible target's inbox or archive. */
  private async alreadySent(job: CronJob, id: string): Promise<boolean> {
    const targets = job.to === 'any' ? this.deps.pool.names() : [job.to];
    for (const agent of targets) {
      const seen = [
        ...(await this.deps.mailbox.peek(agent)),
        ...(await this.deps.mailbox.history(agent, 500)),
      ];
      if (seen.some((m) => m.metadata.cronMessageId === id)) return true;
    }
    return false;
  }
}
