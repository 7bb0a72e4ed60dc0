import { describe, expect, it } from 'vitest';
import { ManualClock, systemClock } from '../../src/cron/clock.js';

const T0 = Date.parse('2026-05-01T12:00:00.000Z');

describe('ManualClock', () => {
  it('fires due timers in deadline order, each seeing its own time', async () => {
    const clock = new ManualClock(T0);
    const seen: string[] = [];
    clock.setTimeout(() => seen.push(`b@${clock.now() - T0}`), 300);
    clock.setTimeout(() => seen.push(`a@${clock.now() - T0}`), 100);
    clock.setTimeout(() => seen.push(`c@${clock.now() - T0}`), 300);
    clock.setTimeout(() => seen.push('late'), 1000);
    await clock.advance(500);
    expect(seen).toEqual(['a@100', 'b@300', 'c@300']);
    expect(clock.now()).toBe(T0 + 500);
    expect(clock.pendingTimers()).toBe(1);
    expect(clock.nextTimerIn()).toBe(500);
  });

  it('fires timers set by a timer within the same advance, after settling its async work', async () => {
    const clock = new ManualClock(T0);
    const seen: number[] = [];
    const tick = async () => {
      await Promise.resolve();
      seen.push(clock.now() - T0);
      if (seen.length < 5) clock.setTimeout(() => void tick(), 10);
    };
    clock.setTimeout(() => void tick(), 10);
    await clock.advance(1000);
    expect(seen).toEqual([10, 20, 30, 40, 50]);
  });

  it('clearTimeout cancels; a zero or negative delay is due at once', async () => {
    const clock = new ManualClock(T0);
    const seen: string[] = [];
    const h = clock.setTimeout(() => seen.push('cleared'), 10);
    clock.setTimeout(() => seen.push('now'), -5);
    clock.clearTimeout(h);
    await clock.advance(0);
    expect(seen).toEqual(['now']);
    expect(clock.pendingTimers()).toBe(0);
  });

  it('set() moves the wall clock only: timers keep waiting on elapsed time', async () => {
    const clock = new ManualClock(T0);
    const seen: number[] = [];
    clock.setTimeout(() => seen.push(clock.now()), 1000);
    clock.set(T0 + 3_600_000); // forwards: nothing fires
    expect(seen).toEqual([]);
    clock.set(T0 - 5000); // backwards
    await clock.advance(1000);
    expect(seen).toEqual([T0 - 4000]); // fired "early" by wall-clock time, as a real timer would
  });
});

describe('systemClock', () => {
  it('reads Date.now and runs real timers', async () => {
    const before = Date.now();
    expect(Math.abs(systemClock.now() - before)).toBeLessThan(1000);
    const fired = await new Promise<number>((resolve) =>
      systemClock.setTimeout(() => resolve(systemClock.now()), 5),
    );
    expect(fired).toBeGreaterThanOrEqual(before);
    let cancelledRan = false;
    const cancelled = systemClock.setTimeout(() => (cancelledRan = true), 1);
    systemClock.clearTimeout(cancelled);
    await new Promise<void>((resolve) => systemClock.setTimeout(resolve, 10));
    expect(cancelledRan).toBe(false);
  });
});
