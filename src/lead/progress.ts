import type { LoggedEvent } from '../observe/types.js';

/**
 * The lead's view of who last did something, in memory: every team event
 * naming an agent and every model call a teammate makes pass through the
 * lead, so the stall check needs no file (see notify/stall.ts). One number
 * per agent: the map's size is the roster's.
 */
export class ProgressTimes {
  private readonly times: Record<string, number> = {};

  /** A model call (or another sign of life) of `agent` at `at`. */
  note(agent: string, at = Date.now()): void {
    if (Number.isFinite(at) && at > (this.times[agent] ?? 0)) this.times[agent] = at;
  }

  onEvent(e: LoggedEvent): void {
    if ('agent' in e && typeof e.agent === 'string') this.note(e.agent, Date.parse(e.ts));
  }

  snapshot(): Readonly<Record<string, number>> {
    return this.times;
  }
}
