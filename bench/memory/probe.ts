/**
 * One reading of the memory benchmark, in a fresh process (run with
 * --expose-gc): `lead <k>` starts a lead with k teammates and waits until all
 * are idle; `bare <k>` starts k worker threads that load nothing (the floor:
 * what a thread costs in Node before teamd puts anything in it). Prints one
 * JSON line with the process RSS (median of 5 readings after a GC).
 *   node --expose-gc --import tsx bench/memory/probe.ts lead|bare <k>
 */
import { Worker } from 'node:worker_threads';
import { medianOf } from '../support/stats.js';
import { loadDaemon } from '../support/dist.js';
import { allIdle, makeBenchRepo, oneTurnScript, startTeam, teammates } from '../support/team.js';

const [mode, countArg] = process.argv.slice(2) as ['lead' | 'bare', string];
const COUNT = Number(countArg);
const gc = (globalThis as { gc?: () => void }).gc;

async function rssMB(): Promise<number> {
  const readings: number[] = [];
  for (let i = 0; i < 5; i++) {
    gc?.();
    await new Promise((r) => setTimeout(r, 200)); // let freed pages go back before reading
    readings.push(process.memoryUsage().rss / 2 ** 20);
  }
  return medianOf(readings);
}

async function leadReading(): Promise<Record<string, unknown>> {
  const daemon = await loadDaemon();
  const repo = await makeBenchRepo(oneTurnScript(), { teammates: teammates(COUNT) });
  try {
    const began = performance.now();
    const team = await startTeam(daemon, repo);
    try {
      await allIdle(team, 600_000);
      const startMs = performance.now() - began;
      const idle = team.lead.pool.names().filter((n) => team.lead.pool.stateOf(n)?.state === 'idle').length;
      return { rssMB: await rssMB(), startMs, idle };
    } finally {
      await team.stop();
    }
  } finally {
    await repo.close();
  }
}

async function bareReading(): Promise<Record<string, unknown>> {
  await loadDaemon(); // the same modules in the main thread as a lead has
  const workers = Array.from(
    { length: COUNT },
    () => new Worker('setInterval(() => {}, 1 << 30)', { eval: true }),
  );
  await Promise.all(workers.map((w) => new Promise((r) => w.once('online', r))));
  const reading = { rssMB: await rssMB(), idle: COUNT };
  await Promise.all(workers.map((w) => w.terminate()));
  return reading;
}

const reading = mode === 'lead' ? await leadReading() : await bareReading();
console.log(JSON.stringify({ mode, count: COUNT, ...reading }));
