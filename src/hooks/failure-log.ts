/**
 * Hooks that could not start (or failed), kept where `teamd status` finds
 * them: `.team/state/hook-failures.jsonl`, one short line each (appends of
 * one line are atomic between processes). Status shows the last few of the
 * last day.
 */
import { closeSync, constants, readFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { openSyncMakingFolder } from '../store/open-sync.js';
import type { HookFailure } from './types.js';

export const hookFailuresPath = (repoRoot: string): string =>
  join(repoRoot, '.team', 'state', 'hook-failures.jsonl');

const LineSchema = z.object({
  ts: z.string(),
  agent: z.string(),
  event: z.string(),
  command: z.string(),
  message: z.string(),
});
export type HookFailureLine = z.infer<typeof LineSchema>;

/** Appends one failure; a write that fails is dropped (the event log has it too). */
export function recordHookFailure(repoRoot: string, agent: string, failure: HookFailure): void {
  const line = {
    ts: new Date().toISOString(),
    agent,
    event: failure.event,
    command: failure.command.slice(0, 300),
    message: failure.message.slice(0, 500),
  };
  try {
    const fd = openSyncMakingFolder(
      hookFailuresPath(repoRoot),
      constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW,
      0o600,
    );
    try {
      writeSync(fd, JSON.stringify(line) + '\n');
    } finally {
      closeSync(fd);
    }
  } catch {
    // best effort: the run goes on
  }
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** The last `limit` failures of the last `withinMs` (a day), oldest first; a damaged line is skipped. */
export function recentHookFailures(
  repoRoot: string,
  limit = 5,
  withinMs = DAY_MS,
  now = Date.now(),
): HookFailureLine[] {
  let text: string;
  try {
    text = readFileSync(hookFailuresPath(repoRoot), 'utf8');
  } catch {
    return [];
  }
  return text
    .split('\n')
    .slice(-(limit * 4) - 1)
    .flatMap((l) => {
      try {
        const parsed = LineSchema.safeParse(JSON.parse(l));
        return parsed.success ? [parsed.data] : [];
      } catch {
        return [];
      }
    })
    .filter((f) => now - Date.parse(f.ts) <= withinMs)
    .slice(-limit);
}
