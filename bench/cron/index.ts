/**
 * Cron fire jitter with the real clock: a 6-field every-second job on real files
 * (CronStore in a temp folder) for about ten seconds (five with --quick). For
 * each fire, two lags behind the slot time: when the timer woke, and when
 * `deliver` was called (after `lastFired` was written and fsynced). Floor, in
 * the same run and process: a bare setTimeout aimed at each second boundary.
 * Prints a table and writes bench/results/cron.json. A benchmark, not a
 * test: it never fails on a number.
 *
 *   npm run bench -- cron [--quick]
 *   node --import tsx bench/cron/index.ts [seconds] [--quick]   (uses dist/ as built)
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Clock, CronEvent } from '../../src/cron/types.js';
import { benchArgs } from '../support/args.js';
import { fromDist } from '../support/dist.js';
import { BenchReport } from '../support/report.js';

const { systemClock } = await fromDist<typeof import('../../src/cron/clock.js')>('cron/clock.js');
const { CronScheduler } = await fromDist<typeof import('../../src/cron/scheduler.js')>('cron/scheduler.js');
const { CronStore } = await fromDist<typeof import('../../src/store/cron/index.js')>('store/cron/index.js');

const args = benchArgs();
const SECONDS = args.seconds ?? (args.quick ? 5 : 10);

/** The real clock, noting when each timer callback actually runs. */
function observedClock(wakes: number[]): Clock {
  return {
    now: () => systemClock.now(),
    clearTimeout: (h) => systemClock.clearTimeout(h),
    setTimeout: (fn, ms) =>
      systemClock.setTimeout(() => {
        wakes.push(Date.now());
        fn();
      }, ms),
  };
}

/** The floor: a plain timer for each of the next `count` second boundaries; ms late for each. */
function bareTimers(count: number): Promise<number[]> {
  return new Promise((resolve) => {
    const late: number[] = [];
    const arm = (): void => {
      const target = Math.ceil((Date.now() + 1) / 1000) * 1000;
      setTimeout(() => {
        late.push(Date.now() - target);
        if (late.length < count) arm();
        else resolve(late);
      }, target - Date.now());
    };
    arm();
  });
}

async function run(): Promise<{ wake: number[]; deliver: number[]; bare: number[]; events: CronEvent[] }> {
  const root = await mkdtemp(join(tmpdir(), 'teamd-bench-cron-'));
  const wakes: number[] = [];
  const wake: number[] = [];
  const deliver: number[] = [];
  const events: CronEvent[] = [];
  const store = new CronStore(root);
  await store.add({ id: 'tick', cron: '* * * * * *', prompt: 'tick', to: 'alice' });
  const scheduler = new CronScheduler({
    source: store,
    clock: observedClock(wakes),
    onEvent: (e) => events.push(e),
    deliver: async (_job, slot) => {
      deliver.push(Date.now() - slot.getTime());
      const woke = wakes.findLast((t) => t >= slot.getTime());
      if (woke !== undefined) wake.push(woke - slot.getTime());
      return 'delivered';
    },
  });
  try {
    await scheduler.start();
    const bare = await bareTimers(SECONDS);
    return { wake, deliver, bare, events };
  } finally {
    await scheduler.stop();
    await rm(root, { recursive: true, force: true });
  }
}

const { wake, deliver, bare, events } = await run();
const report = new BenchReport(
  'cron',
  `Cron fire jitter, every-second job, ${SECONDS} s, real clock (ms after the slot)`,
  args.quick,
  { seconds: SECONDS },
);
report.row('floor: bare setTimeout at the second', bare);
report.row('timer woke', wake, 'ms', 'floor: bare setTimeout at the second');
report.row('deliver called', deliver, 'ms', 'floor: bare setTimeout at the second');
report.figure('missed runs', events.filter((e) => e.type === 'cron_missed_skipped').length, 'count');
report.figure('errors', events.filter((e) => e.type === 'cron_error').length, 'count');
await report.finish();
