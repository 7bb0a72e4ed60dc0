import { afterEach, describe, expect, it } from 'vitest';
import type { Harness } from './support/harness.js';
import { harness, inbox, readJob, writeJob } from './support/harness.js';

const T0 = '2026-05-01T12:00:00.000Z';
const at = (seconds: number) => new Date(Date.parse(T0) + seconds * 1000).toISOString();
const seconds = (iso: string) => (Date.parse(iso) - Date.parse(T0)) / 1000;

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

async function everyTwoSeconds(catchUp: 'once' | 'skip' = 'skip', options = {}): Promise<Harness> {
  h = await harness(T0, options);
  await writeJob(h.root, {
    id: 'tick',
    cron: '*/2 * * * * *',
    to: 'alice',
    timezone: 'UTC',
    catchUp,
    createdAt: T0,
  });
  await h.scheduler.start();
  return h;
}

const slotsIn = async (root: string) => (await inbox(root, 'alice')).map((m) => seconds(m.slot));

describe('firing on time', () => {
  it('a 6-field every-2-seconds job delivers once per slot over a minute, on one timer', async () => {
    const h = await everyTwoSeconds();
    expect(h.clock.pendingTimers()).toBe(1);
    expect(h.clock.nextTimerIn()).toBe(2000);
    await h.advance(60_000);
    const expected = Array.from({ length: 30 }, (_, i) => 2 * (i + 1));
    expect(await slotsIn(h.root)).toEqual(expected);
    expect(h.of('cron_fired').map((e) => seconds(e.slot))).toEqual(expected);
    expect(h.of('cron_fired').every((e) => e.at === e.slot && !e.late)).toBe(true);
    expect(h.of('cron_delivered')).toHaveLength(30);
    expect(h.of('cron_missed_skipped')).toEqual([]);
    const job = await readJob(h.root, 'tick');
    expect(job.lastFired).toBe(at(60));
    expect(job.pendingDelivery).toBeNull();
    expect(h.clock.pendingTimers()).toBe(1);
  });

  it('a timer that wakes before the slot is re-armed and fires nothing early', async () => {
    h = await harness(T0);
    await writeJob(h.root, {
      id: 'ten',
      cron: '*/10 * * * * *',
      to: 'alice',
      timezone: 'UTC',
      createdAt: T0,
    });
    await h.scheduler.start();
    expect(h.clock.nextTimerIn()).toBe(10_000);
    h.clock.set(Date.parse(T0) - 3000); // the wall clock steps back: the timer will wake 3 s early
    await h.advance(10_000);
    expect(h.clock.now()).toBe(Date.parse(at(7)));
    expect(h.of('cron_fired')).toEqual([]);
    expect(h.clock.pendingTimers()).toBe(1);
    expect(h.clock.nextTimerIn()).toBe(3000);
    await h.advance(3000);
    expect(h.of('cron_fired').map((e) => [e.slot, e.at])).toEqual([[at(10), at(10)]]);
    expect(await slotsIn(h.root)).toEqual([10]);
  });
});

describe('clock jumps', () => {
  it('backwards: slots at or before lastFired never fire again, also after a restart', async () => {
    const h = await everyTwoSeconds();
    await h.advance(10_000);
    expect(await slotsIn(h.root)).toEqual([2, 4, 6, 8, 10]);
    h.clock.set(Date.parse(at(1))); // nine seconds back
    await h.advance(5000);
    await h.restart(); // a daemon started while the clock is behind lastFired
    await h.advance(15_000);
    expect(await slotsIn(h.root)).toEqual([2, 4, 6, 8, 10, 12, 14, 16, 18, 20]);
    expect(h.of('cron_fired').map((e) => seconds(e.slot))).toEqual([2, 4, 6, 8, 10, 12, 14, 16, 18, 20]);
    expect(h.of('cron_clock_jumped').length).toBeGreaterThan(0);
  });

  it('forwards with catchUp "skip": the slots jumped over are dropped and reported', async () => {
    const h = await everyTwoSeconds('skip', { lateAfterMs: 500 });
    await h.advance(4000);
    h.clock.set(Date.parse(at(34.7))); // jump over slots 6..34 (the timer wakes at 36.7)
    await h.advance(2000);
    expect(h.of('cron_missed_skipped')).toMatchObject([
      { jobId: 'tick', reason: 'missed', count: 16, countCapped: false, first: at(6), last: at(36) },
    ]);
    expect(h.of('cron_clock_jumped')).toMatchObject([{ expectedAt: at(6), now: at(36.7) }]);
    await h.advance(1300);
    expect(await slotsIn(h.root)).toEqual([2, 4, 38]);
  });

  it('forwards with catchUp "once": one fire stands for the slots jumped over', async () => {
    const h = await everyTwoSeconds('once', { lateAfterMs: 500 });
    await h.advance(4000);
    h.clock.set(Date.parse(at(34.7)));
    await h.advance(2000);
    expect(h.of('cron_caught_up')).toMatchObject([{ jobId: 'tick', slot: at(36), missed: 16 }]);
    expect(h.of('cron_fired').at(-1)).toMatchObject({ slot: at(36), late: true });
    await h.advance(1300);
    expect(await slotsIn(h.root)).toEqual([2, 4, 36, 38]);
  });

  it('a slot reached within lateAfterMs is on time; the ones before it are missed', async () => {
    const h = await everyTwoSeconds('skip'); // default lateAfterMs: 5000
    await h.advance(2000);
    h.clock.set(Date.parse(at(9.5))); // the timer wakes at 11.5: slot 10 is 1.5 s late
    await h.advance(2000);
    expect(h.of('cron_missed_skipped')).toMatchObject([{ count: 3, first: at(4), last: at(8) }]);
    expect(await slotsIn(h.root)).toEqual([2, 10]);
  });
});

describe('slots missed while the daemon was down', () => {
  const hourly = async (catchUp: 'once' | 'skip') => {
    h = await harness('2026-05-01T12:30:00.000Z');
    await writeJob(h.root, {
      id: 'hourly',
      cron: '0 * * * *',
      to: 'bob',
      timezone: 'UTC',
      catchUp,
      lastFired: '2026-05-01T09:00:00.000Z',
    });
    await h.scheduler.start();
    return h;
  };

  it('catchUp "once" fires the latest missed slot once, at start', async () => {
    const h = await hourly('once');
    expect(h.of('cron_caught_up')).toMatchObject([{ slot: '2026-05-01T12:00:00.000Z', missed: 3 }]);
    expect((await inbox(h.root, 'bob')).map((m) => m.slot)).toEqual(['2026-05-01T12:00:00.000Z']);
    expect(h.clock.nextTimerIn()).toBe(60_000); // long sleeps are cut to maxSleepMs
    await h.advance(30 * 60_000);
    expect((await inbox(h.root, 'bob')).map((m) => m.slot.slice(11, 16))).toEqual(['12:00', '13:00']);
  });

  it('catchUp "skip" drops them, reported in one event, and waits for the next slot', async () => {
    const h = await hourly('skip');
    expect(h.of('cron_missed_skipped')).toMatchObject([
      { reason: 'missed', count: 3, first: '2026-05-01T10:00:00.000Z', last: '2026-05-01T12:00:00.000Z' },
    ]);
    expect(h.of('cron_fired')).toEqual([]);
    await h.advance(30 * 60_000);
    expect((await inbox(h.root, 'bob')).map((m) => m.slot)).toEqual(['2026-05-01T13:00:00.000Z']);
  });

  it('a month of missed per-second slots is counted up to a cap and caught up in one fire', async () => {
    h = await harness('2026-06-01T00:00:00.500Z');
    const lastFired = '2026-05-01T00:00:00.000Z';
    await writeJob(h.root, {
      id: 'sec',
      cron: '* * * * * *',
      to: 'bob',
      timezone: 'UTC',
      catchUp: 'once',
      lastFired,
    });
    await h.scheduler.start();
    expect(h.of('cron_fired')).toMatchObject([{ slot: '2026-06-01T00:00:00.000Z', late: false }]);
    expect(h.of('cron_caught_up')).toMatchObject([{ slot: '2026-06-01T00:00:00.000Z' }]);
    expect(h.of('cron_caught_up')[0]?.missed).toBeGreaterThanOrEqual(1000);
  });
});

describe('DST in the scheduler', () => {
  it('a daily 01:30 New York job restarted inside the repeated hour does not fire that day again', async () => {
    h = await harness('2026-11-01T05:29:00.000Z', { maxSleepMs: 3_600_000 }); // 01:29 EDT
    await writeJob(h.root, { id: 'night', cron: '30 1 * * *', to: 'bob', timezone: 'America/New_York' });
    await h.scheduler.start();
    await h.advance(2 * 60_000);
    h.clock.set(Date.parse('2026-11-01T06:15:00.000Z')); // 01:15 EST, restarted
    await h.restart();
    await h.advance(25 * 3_600_000);
    expect((await inbox(h.root, 'bob')).map((m) => m.slot)).toEqual([
      '2026-11-01T05:30:00.000Z',
      '2026-11-02T06:30:00.000Z',
    ]);
  });
});
