/**
 * A run that ended on the model's infrastructure, not on the task: a refused
 * key or an endpoint that stayed down through the client's retries. The lead
 * pauses the team for those (see lead/pause.ts); the task goes back to
 * pending instead of failing. A refused key spends nothing; an outage counts
 * in `metadata.modelOutages`, and the task fails only once that reaches the
 * team's `maxAttempts`.
 */
import type { ResultEvent } from '../agent/types.js';
import type { Task } from '../store/types.js';
import type { TeammateHost } from './host.js';

const OUTAGE = new Set(['server', 'overloaded', 'connection', 'rate_limit']);

export type Trouble = { kind: 'auth' | 'outage'; message: string } | null;

export function modelTrouble(result: ResultEvent): Trouble {
  const e = result.model_error;
  if (!e || result.subtype === 'success') return null;
  if (e.kind === 'auth') return { kind: 'auth', message: e.message };
  return OUTAGE.has(e.kind) ? { kind: 'outage', message: `${e.kind}: ${e.message}` } : null;
}

/** Puts the task back (true), or says it has used its attempts (false: the caller fails it). */
export async function releaseForTrouble(
  host: TeammateHost,
  task: Task,
  trouble: NonNullable<Trouble>,
): Promise<boolean> {
  const { tasks } = host.deps;
  if (trouble.kind === 'outage') {
    const outages = Number(tasks.get(task.id)?.metadata.modelOutages ?? 0) + 1;
    if (outages >= host.deps.data.team.maxAttempts) return false;
    await tasks.update(task.id, (t) => ({ ...t, metadata: { ...t.metadata, modelOutages: outages } }));
  }
  const reason =
    trouble.kind === 'auth'
      ? `model authentication failed (${trouble.message}); no attempt spent`
      : `model outage (${trouble.message}); it runs again after the team's backoff`;
  await tasks.release(task.id, host.name, reason);
  host.deps.log({ type: 'task_released', task: task.id, agent: host.name, reason });
  return true;
}
