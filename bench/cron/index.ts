/**
 * Cron fire jitter with the real clock: a 6-field every-second job on real files
 * (CronStore in a temp folder) for about ten seconds. For each fire, two lags
 * behind the slot time: when the timer woke, and when `deliver` was called
 * (after `lastFired` was written and fsynced). Prints a table and writes
 * bench/results/cron.json. A benchmark, not a test: it never fails on a number.
 *
 *   node --import tsx bench/cron/index.ts [seconds]
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { systemClock } from '../../src/cron/clock.js';
import { CronScheduler } from '../../src/cron/scheduler.js';
import type { Clock, CronEvent } from '../../src/cron/types.js';
import { CronStore } from '../../src/store/cron/index.js';

const SECONDS = Number(process.argv[2] ?? 10);
const RESULTS = join(dirname(fileURLToPath(import.meta.url)), '..', 'results', 'cron.json');

interface Stats {
  n: number;
  min: number;
  median: number;
  p99: number;
  max: number;
}

function stats(values: number[]): Stats {
  const sorted = [...values].sort((a, b) => a - b);
  const pick = (q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? NaN;
  return {
    n: sorted.length,
    min: sorted[0] ?? NaN,
    median: pick(0.5),
    p99: pick(0.99),
    max: sorted[sorted.length - 1] ?? NaN,
  };
}

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

async function run(): Promise<{ wake: number[]; deliver: number[]; events: CronEvent[] }> {
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
    await new Promise((resolve) => setTimeout(resolve, SECONDS * 1000 + 500));
  } finally {
    await scheduler.stop();
    await rm(root, { recursive: true, force: true });
  }
  return { wake, deliver, events };
}

const { wake, deliver, events } = await run();
const rows = { 'timer woke': stats(wake), 'deliver called': stats(deliver) };
const fmt = (v: number) => v.toFixed(0).padStart(7);
console.log(`cron fire jitter, every-second job, ${SECONDS} s, real clock (ms after the slot)`);
console.log(
  `${'metric'.padEnd(16)}${['n', 'median', 'p99', 'min', 'max'].map((h) => h.padStart(7)).join('')}`,
);
for (const [name, s] of Object.entries(rows)) {
  console.log(`${name.padEnd(16)}${[s.n, s.median, s.p99, s.min, s.max].map(fmt).join('')}`);
}
const missed = events.filter((e) => e.type === 'cron_missed_skipped').length;
const errors = events.filter((e) => e.type === 'cron_error').length;
console.log(`missed runs: ${missed}, errors: ${errors}`);
await mkdir(dirname(RESULTS), { recursive: true });
const result = {
  bench: 'cron',
  seconds: SECONDS,
  unit: 'ms',
  node: process.version,
  ...rows,
  missedRuns: missed,
  errors,
  at: new Date().toISOString(),
};
await writeFile(RESULTS, JSON.stringify(result, null, 2) + '\n');
console.log(`wrote ${RESULTS}`);
