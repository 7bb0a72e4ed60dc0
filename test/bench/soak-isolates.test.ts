/**
 * The soak probe's GC of every isolate (bench/soak/isolates.ts), on real
 * worker threads: a worker holding garbage and a young generation grown by
 * work reads its live heap after the GC, by thread id, and a worker started
 * after the attach is reached too.
 */
import { Worker } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { WorkerIsolates } from '../../bench/soak/isolates.js';

// Keeps ~8 MB live, makes ~40 MB of garbage in its young generation, then says so and stays.
const SOURCE = `
  const { parentPort } = require('node:worker_threads');
  globalThis.kept = Array.from({ length: 100_000 }, (_, i) => ({ i, s: 'kept ' + i }));
  let junk = [];
  for (let i = 0; i < 400_000; i++) { junk.push({ i, s: 'junk ' + i }); if (junk.length > 50_000) junk = []; }
  globalThis.last = junk;
  parentPort.postMessage('ready');
  setInterval(() => {}, 1000);
`;
const started: Worker[] = [];
const startWorker = async (): Promise<Worker> => {
  const w = new Worker(SOURCE, { eval: true });
  started.push(w);
  await new Promise((r) => w.once('message', r));
  return w;
};
const attachedTo = async (isolates: WorkerIsolates, threadId: number): Promise<void> => {
  while (!(await isolates.collect()).some((h) => h.threadId === threadId)) await new Promise((r) => setImmediate(r));
};

afterEach(async () => {
  await Promise.all(started.splice(0).map((w) => w.terminate()));
});

describe('WorkerIsolates', () => {
  it('collects every worker and reads its live heap by thread id, a worker started later too', async () => {
    const first = await startWorker();
    const isolates = await WorkerIsolates.attach();
    try {
      await attachedTo(isolates, first.threadId);
      const later = await startWorker();
      await attachedTo(isolates, later.threadId);
      const heaps = await isolates.collect();
      for (const w of [first, later]) {
        const h = heaps.find((x) => x.threadId === w.threadId)!;
        expect(h.usedMB).toBeGreaterThan(5); // the kept objects
        expect(h.usedMB).toBeLessThan(h.totalMB + 0.01);
        expect(h.totalMB).toBeLessThan(h.usedMB + 16); // the young generation's grown pages went back
      }
      await isolates.collectMain();
    } finally {
      isolates.close();
    }
  }, 30_000);

  it('skips a worker that is gone', async () => {
    const w = await startWorker();
    const isolates = await WorkerIsolates.attach();
    try {
      await attachedTo(isolates, w.threadId);
      await w.terminate();
      expect((await isolates.collect()).some((h) => h.threadId === w.threadId)).toBe(false);
    } finally {
      isolates.close();
    }
  }, 30_000);
});
