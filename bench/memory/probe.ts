/**
 * One reading of the memory benchmark, in a fresh process (run with
 * --expose-gc): `lead <k>` starts a lead with k teammates and waits until all
 * are idle (`rssMB`), then gives each teammate one one-turn task of its own and
 * waits until all are idle again (`afterTaskMB`: what loading on first use
 * added); `api <k>` does the same with a model on the (fake, loopback)
 * Messages API instead of the lead's scripted one, so each teammate runs the
 * Anthropic SDK itself, as with a real model; `bare <k>` starts k worker
 * threads that load nothing (the floor: what a thread costs in Node before
 * teamd puts anything in it). Prints one JSON line; each RSS is the median of
 * 5 readings after a GC.
 *   node --expose-gc --import tsx bench/memory/probe.ts lead|api|bare <k>
 */
import { Worker } from 'node:worker_threads';
import { medianOf } from '../support/stats.js';
import { fromDist, loadDaemon, type Daemon } from '../support/dist.js';
import {
  allIdle,
  makeBenchRepo,
  oneTurnScript,
  startTeam,
  teammates,
  untilEvent,
  type BenchRepo,
  type RunningTeam,
} from '../support/team.js';

const [mode, countArg] = process.argv.slice(2) as ['lead' | 'api' | 'bare', string];
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

async function leadReading(config: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
  const daemon = await loadDaemon();
  const repo = await makeBenchRepo(oneTurnScript(), { teammates: teammates(COUNT), ...config });
  try {
    const began = performance.now();
    const team = await startTeam(daemon, repo);
    try {
      await allIdle(team, 600_000);
      const startMs = performance.now() - began;
      const idle = team.lead.pool.names().filter((n) => team.lead.pool.stateOf(n)?.state === 'idle').length;
      const idleMB = await rssMB();
      await oneTaskEach(daemon, repo, team);
      return { rssMB: idleMB, afterTaskMB: await rssMB(), startMs, idle };
    } finally {
      await team.stop();
    }
  } finally {
    await repo.close();
  }
}

/** A lead whose teammates call the fake Messages API on 127.0.0.1 through the SDK. */
async function apiReading(): Promise<Record<string, unknown>> {
  const { startFakeAnthropicServer } = await fromDist<typeof import('../../src/model/fake-server/server.js')>(
    'model/fake-server/server.js',
  );
  const server = await startFakeAnthropicServer({ script: oneTurnScript() });
  // the teammate threads share this environment: their clients find the server through it
  process.env['ANTHROPIC_BASE_URL'] = server.url;
  process.env['ANTHROPIC_API_KEY'] = 'test-key';
  try {
    return await leadReading({ model: 'claude-sonnet-5-5' });
  } finally {
    await server.close();
  }
}

/** Each teammate gets one task assigned to it (so none takes two), runs it, and is idle again. */
async function oneTaskEach(daemon: Daemon, repo: BenchRepo, team: RunningTeam): Promise<void> {
  const completed = new Set<string>();
  const off = team.on((e) => {
    if (e.type === 'task_completed') completed.add(e.task);
  });
  try {
    const store = await daemon.TaskStore.open(repo.dir);
    for (const name of team.lead.pool.names()) {
      const made = await store.create({
        id: `once-${name}`,
        subject: `one-turn task for ${name}`,
        owner: name,
      });
      if (!made.ok) throw new Error(made.error);
    }
    await untilEvent(team, () => completed.size === COUNT, 600_000, `${COUNT} tasks completed`);
    await allIdle(team, 600_000);
  } finally {
    off();
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

const reading =
  mode === 'lead' ? await leadReading() : mode === 'api' ? await apiReading() : await bareReading();
console.log(JSON.stringify({ mode, count: COUNT, ...reading }));
