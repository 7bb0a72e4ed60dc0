import type { CronJob, Outcome } from '../store/types.js';
import type { CronJobSource } from './types.js';

/**
 * Jobs that are not durable (`durable: false`): kept in memory for the daemon's
 * lifetime, with the same operations as the `.cron/` store so the scheduler
 * fires both the same way.
 */
export class MemoryCronJobs implements CronJobSource {
  private readonly jobs = new Map<string, CronJob>();

  has(id: string): boolean {
    return this.jobs.has(id);
  }

  add(job: CronJob): Outcome<CronJob> {
    if (this.jobs.has(job.id)) return { ok: false, error: `cron job ${job.id} already exists` };
    this.jobs.set(job.id, job);
    return { ok: true, value: job };
  }

  remove(id: string): Outcome<CronJob> {
    const job = this.jobs.get(id);
    if (!job) return { ok: false, error: `no non-durable cron job ${id}` };
    this.jobs.delete(id);
    return { ok: true, value: job };
  }

  async list(): Promise<{ jobs: CronJob[]; problems: [] }> {
    return { jobs: [...this.jobs.values()], problems: [] };
  }

  async markFired(id: string, slotIso: string): Promise<Outcome<CronJob>> {
    const job = this.jobs.get(id);
    if (job?.lastFired && Date.parse(job.lastFired) >= Date.parse(slotIso)) {
      return { ok: false, error: `cron job ${id} already fired at ${job.lastFired}` };
    }
    return this.update(id, (j) => ({
      ...j,
      lastFired: slotIso,
      pendingDelivery: slotIso,
      done: j.done || !j.recurring,
    }));
  }

  async markDelivered(id: string): Promise<Outcome<CronJob>> {
    return this.update(id, (job) => ({ ...job, pendingDelivery: null }));
  }

  private async update(id: string, mutate: (job: CronJob) => CronJob): Promise<Outcome<CronJob>> {
    const job = this.jobs.get(id);
    if (!job) return { ok: false, error: `no non-durable cron job ${id}` };
    const next = mutate(structuredClone(job));
    this.jobs.set(id, next);
    return { ok: true, value: next };
  }
}
