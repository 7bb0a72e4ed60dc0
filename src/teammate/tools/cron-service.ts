import { cronToolService } from '../../cron/tool-service.js';
import type { CronToolService } from '../../tools/cron/types.js';
import { CronStore } from '../../store/cron/index.js';
import type { Outcome, CronJob } from '../../store/types.js';

/**
 * `ctx.services.cron` inside a teammate's worker: jobs are written to `.cron/`
 * and the lead's watcher makes its scheduler pick them up at once. A worker
 * has no scheduler of its own, so it cannot hold non-durable jobs.
 */
export function workerCronService(repoRoot: string, teammates: readonly string[]): CronToolService {
  const store = new CronStore(repoRoot);
  const noEphemeral = async (id: string): Promise<Outcome<CronJob>> => ({ ok: false, error: `no cron job "${id}"` });
  return cronToolService({
    store,
    scheduler: { reload: async () => undefined, jobs: () => [], removeEphemeral: noEphemeral },
    validTargets: () => teammates,
  });
}
