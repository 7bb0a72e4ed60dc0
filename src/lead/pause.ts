/**
 * Infrastructure trouble pauses the team instead of burning its tasks. A
 * refused key pauses until a person runs `teamd resume`; an outage (the
 * endpoint still failing after the client's own retries) pauses for a
 * bounded, growing wait and then tries again by itself; a spent team budget
 * pauses until resumed, and a resume first reads the budget again from the
 * config (still reached: the team stays paused, saying so). Pausing stops the teammates (their tasks go back to
 * pending, no attempt spent); resuming starts them again.
 */
import type { ModelError } from '../model/types.js';
import type { TeamEvent } from '../observe/types.js';
import { clearPause, pausePath, readPause, writePause, type PauseState } from './pause-file.js';
import { existsSync } from 'node:fs';

/** Waits after consecutive outages: 15 s, 30 s, 1 min, 2 min, then 5 min each time. */
export const OUTAGE_BACKOFF_MS = [15_000, 30_000, 60_000, 120_000, 300_000];

const OUTAGE_KINDS = new Set(['server', 'overloaded', 'connection', 'rate_limit']);

export interface PauseDeps {
  repoRoot: string;
  log: (e: TeamEvent) => void;
  stopTeammates: (reason: string) => Promise<void>;
  startTeammates: () => void;
  outageBackoffMs?: number[];
  /** Before a budget pause ends: the budget message when the team is still over it, else null. */
  recheckBudget?: () => Promise<string | null>;
  /** How often a paused lead looks for `teamd resume` (default 500 ms). */
  pollMs?: number;
}

export class TeamPause {
  private state: PauseState | null = null;
  private outages = 0;
  private timer: NodeJS.Timeout | null = null;
  private busy: Promise<void> = Promise.resolve();
  private resuming = false;

  constructor(private readonly deps: PauseDeps) {}

  get current(): PauseState | null {
    return this.state;
  }

  /** A model call ended with `error` (after the client's retries). */
  onModelError(error: ModelError): void {
    if (error.kind === 'auth')
      void this.pause(
        'auth',
        `model authentication failed: ${error.message}; fix it and run \`teamd resume\``,
      );
    else if (OUTAGE_KINDS.has(error.kind)) this.onOutage(error);
  }

  /** A model call succeeded: the next outage starts the schedule again. */
  onModelOk(): void {
    this.outages = 0;
  }

  onBudget(message: string): Promise<void> {
    return this.pause('budget', budgetReason(message));
  }

  private onOutage(error: ModelError): void {
    const schedule = this.deps.outageBackoffMs ?? OUTAGE_BACKOFF_MS;
    const waitMs = schedule[Math.min(this.outages, schedule.length - 1)]!;
    this.outages++;
    const until = new Date(Date.now() + waitMs).toISOString();
    void this.pause('outage', `the model endpoint is failing (${error.kind}: ${error.message})`, until);
  }

  /** Pauses (once: a second trouble while paused changes nothing). */
  pause(kind: PauseState['kind'], reason: string, until?: string): Promise<void> {
    if (this.state) return this.busy;
    this.state = { kind, reason, since: new Date().toISOString(), ...(until ? { until } : {}) };
    const state = this.state;
    // The stop goes out now, ahead of the failed call's answer: no teammate claims more work meanwhile.
    const stopped = this.deps.stopTeammates(`paused: ${reason}`);
    this.busy = this.busy.then(async () => {
      await writePause(this.deps.repoRoot, state);
      this.deps.log({ type: 'team_paused', kind, reason, ...(until ? { until } : {}) });
      await stopped;
      this.watch(until ? Date.parse(until) : null);
    });
    return this.busy;
  }

  /** Ends the pause (`teamd resume`, or an outage's wait is over) and starts the teammates again. */
  resume(by: string): Promise<void> {
    this.resuming = true;
    this.busy = this.busy.then(async () => {
      if (!this.state) return;
      const still = this.state.kind === 'budget' ? await this.deps.recheckBudget?.() : null;
      if (still) return this.stayPaused(budgetReason(still));
      this.stopWatching();
      this.state = null;
      clearPause(this.deps.repoRoot);
      this.deps.log({ type: 'team_resumed', by });
      this.deps.startTeammates();
    });
    this.busy = this.busy.finally(() => (this.resuming = false));
    return this.busy;
  }

  /** A resume refused (the budget is still reached): the pause is written and logged again; the teammates stay stopped. */
  private async stayPaused(reason: string): Promise<void> {
    this.state = { kind: 'budget', reason, since: new Date().toISOString() };
    await writePause(this.deps.repoRoot, this.state);
    this.deps.log({ type: 'team_paused', kind: 'budget', reason });
  }

  /** A paused lead polls: the file gone means `teamd resume`; an outage's time up means try again. */
  private watch(untilMs: number | null): void {
    this.timer = setInterval(() => {
      if (this.resuming) return;
      if (!existsSync(pausePath(this.deps.repoRoot))) void this.resume('teamd resume');
      else if (untilMs !== null && Date.now() >= untilMs) void this.resume('outage backoff over');
    }, this.deps.pollMs ?? 500);
    this.timer.unref();
  }

  private stopWatching(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  close(): void {
    this.stopWatching();
  }
}

/** What a budget pause tells a person. */
export const budgetReason = (message: string): string =>
  `${message}; raise maxBudgetUsd in .team/config.json and run \`teamd resume\` (the lead reads it again)`;

/** A lead starting fresh clears a pause left by the previous one (its checks run again before work). */
export function clearStalePause(repoRoot: string): PauseState | null {
  const stale = readPause(repoRoot);
  if (stale) clearPause(repoRoot);
  return stale;
}
