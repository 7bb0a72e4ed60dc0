import type { NewCronJob } from '../store/cron/index.js';
import type { CronJob, FileProblem, Outcome } from '../store/types.js';
import type { CronJobListing, CronToolService } from '../tools/cron/types.js';
import { checkTarget } from './job-check.js';
import type { CronJobView, CronScheduler } from './scheduler.js';

/** The parts of `CronStore` the tools use. */
export interface CronJobStore {
  add(input: NewCronJob): Promise<Outcome<CronJob>>;
  list(): Promise<{ jobs: CronJob[]; problems: FileProblem[] }>;
  remove(id: string): Promise<Outcome<CronJob>>;
}

export interface CronToolServiceDeps {
  /** The store the scheduler reads (the same instance: it also holds the non-durable jobs). */
  store: CronJobStore;
  scheduler: Pick<CronScheduler, 'reload' | 'jobs' | 'removeEphemeral'>;
  /** Teammate names a job may target (`lead` and `any` always may). */
  validTargets?: () => readonly string[];
}

/**
 * `ctx.services.cron` for the cron tools: writes through the store, then makes
 * the scheduler reload at once (not waiting for the file watcher), and lists
 * jobs with the next fire time the scheduler computed.
 */
export function cronToolService(deps: CronToolServiceDeps): CronToolService {
  return {
    create: async (input) => {
      const refused = checkTarget(input.to ?? 'any', deps.validTargets);
      if (refused) return { ok: false, error: `to: ${refused.message}` };
      const added = await deps.store.add(input);
      if (added.ok) await deps.scheduler.reload(added.value.id);
      return added;
    },
    list: async () => {
      const { jobs, problems } = await deps.store.list();
      return { jobs: listings(jobs, deps.scheduler.jobs()), problems };
    },
    remove: async (id) => {
      const removed = await deps.store.remove(id);
      if (!removed.ok) {
        const ephemeral = await deps.scheduler.removeEphemeral(id);
        return ephemeral.ok ? ephemeral : removed;
      }
      await deps.scheduler.reload(id);
      return removed;
    },
  };
}

/** Stored jobs (as the scheduler last saw them, when it did) plus jobs only the scheduler holds. */
function listings(stored: CronJob[], scheduled: CronJobView[]): CronJobListing[] {
  const byId = new Map(scheduled.map((view) => [view.job.id, view]));
  const fromStore = stored.map((job) => ({ job, nextFireAt: byId.get(job.id)?.nextFireAt ?? null }));
  const storedIds = new Set(stored.map((job) => job.id));
  const onlyScheduled = scheduled.filter((view) => !storedIds.has(view.job.id));
  return [...fromStore, ...onlyScheduled];
}
