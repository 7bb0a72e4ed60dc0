import type { Clock, TimerHandle } from './types.js';

export type { Clock, TimerHandle } from './types.js';

/** The real clock: `Date.now()` and Node's timers. */
export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

interface ManualTimer {
  /** Elapsed-time deadline (the clock's own monotonic counter). */
  due: number;
  /** Creation order: timers due at the same time fire in the order they were set. */
  seq: number;
  fn: () => void;
}

/** Lets whatever a timer started finish before the next one fires. */
export type Settle = () => Promise<void>;

const nextTurn: Settle = () => new Promise((resolve) => setImmediate(resolve));

/**
 * A clock for tests. Like the real one, it has two times: the wall clock that
 * `now()` reads, and elapsed time that timers wait on. `advance(ms)` moves both;
 * `set(time)` moves only the wall clock (an NTP step, a suspend, a person changing
 * the date), so a pending timer then fires early or late by wall-clock time.
 */
export class ManualClock implements Clock {
  private wall: number;
  private elapsed = 0;
  private seq = 0;
  private readonly timers = new Map<TimerHandle, ManualTimer>();

  constructor(start: number | Date) {
    this.wall = typeof start === 'number' ? start : start.getTime();
  }

  now(): number {
    return this.wall;
  }

  setTimeout(fn: () => void, ms: number): TimerHandle {
    const handle = { timer: ++this.seq };
    const delay = Number.isFinite(ms) && ms > 0 ? ms : 0;
    this.timers.set(handle, { due: this.elapsed + delay, seq: this.seq, fn });
    return handle;
  }

  clearTimeout(handle: TimerHandle): void {
    this.timers.delete(handle);
  }

  /** Jumps the wall clock (forwards or backwards); timers keep waiting on elapsed time. */
  set(time: number | Date): void {
    this.wall = typeof time === 'number' ? time : time.getTime();
  }

  /** How many timers are waiting. */
  pendingTimers(): number {
    return this.timers.size;
  }

  /** Milliseconds of elapsed time until the next timer fires; null when none is set. */
  nextTimerIn(): number | null {
    const next = this.earliest();
    return next ? next[1].due - this.elapsed : null;
  }

  /**
   * Lets `ms` pass. Timers fire one at a time in order of their deadline, each
   * seeing `now()` at its own deadline; after each, `settle` is awaited so async
   * work the timer started (and timers that work sets) happens before the next.
   */
  async advance(ms: number, settle: Settle = nextTurn): Promise<void> {
    const end = this.elapsed + Math.max(0, ms);
    for (let next = this.earliest(); next && next[1].due <= end; next = this.earliest()) {
      const [handle, timer] = next;
      this.moveTo(timer.due);
      this.timers.delete(handle);
      timer.fn();
      await settle();
    }
    this.moveTo(end);
  }

  private moveTo(elapsed: number): void {
    this.wall += elapsed - this.elapsed;
    this.elapsed = elapsed;
  }

  private earliest(): [TimerHandle, ManualTimer] | undefined {
    let best: [TimerHandle, ManualTimer] | undefined;
    for (const entry of this.timers) {
      const [, t] = entry;
      if (!best || t.due < best[1].due || (t.due === best[1].due && t.seq < best[1].seq)) best = entry;
    }
    return best;
  }
}
