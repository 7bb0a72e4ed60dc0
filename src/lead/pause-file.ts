/**
 * `.team/state/paused.json`: the team is paused, and why. The lead writes it
 * when the model's credentials fail, when the endpoint is down (with the time
 * it retries), or when the team's budget is reached; `teamd status` and `top`
 * show it; `teamd resume` deletes it and the paused lead, which polls for it,
 * starts its teammates again. A missing file means "not paused".
 */
import { existsSync, rmSync } from 'node:fs';
import { readStateSync, stateOr } from '../store/state-file.js';
import { join } from 'node:path';
import { z } from 'zod';
import { writeFileAtomic } from '../store/atomic.js';

export const PauseStateSchema = z.strictObject({
  /** auth: credentials refused; outage: the endpoint is down (retried at `until`); budget: the team's budget is spent. */
  kind: z.enum(['auth', 'outage', 'budget']),
  /** One line for a person: what happened and how to fix it. */
  reason: z.string(),
  since: z.string(),
  /** Outage only: when the lead tries again by itself. */
  until: z.string().optional(),
});
export type PauseState = z.infer<typeof PauseStateSchema>;

export const pausePath = (repoRoot: string): string => join(repoRoot, '.team', 'state', 'paused.json');

/** The pause in force, or null (no file, or a file that is not a pause). */
export function readPause(repoRoot: string): PauseState | null {
  const file = pausePath(repoRoot);
  return stateOr(readStateSync(file, PauseStateSchema), null);
}

export async function writePause(repoRoot: string, state: PauseState): Promise<void> {
  await writeFileAtomic(pausePath(repoRoot), JSON.stringify(state, null, 2) + '\n');
}

/** Removes the pause; true when there was one. */
export function clearPause(repoRoot: string): boolean {
  const had = existsSync(pausePath(repoRoot));
  rmSync(pausePath(repoRoot), { force: true });
  return had;
}

/** What a person reads about a pause (status, top, the event log). */
export function pauseLine(p: PauseState): string {
  const retry = p.until ? `; retrying at ${p.until} (or run \`teamd resume\`)` : '';
  return `paused since ${p.since}: ${p.reason}${retry}`;
}
