/**
 * The lead side of the soak bench, in its own process (run with --expose-gc):
 * on a repository with weeks of history, `teamd gc`'s work, the lead's cold
 * start, its RSS before and after `tasks` one-turn tasks and `messages`
 * messages, and the stall check's time per run. Prints one JSON line
 * `{"phase":"idle",…}` and keeps the idle team running until stdin closes
 * (the parent measures `top`, `status` and `logs` meanwhile), then stops it.
 * Every RSS reading follows a full GC in every isolate (isolates.ts: the
 * teammates' threads too) and comes with each isolate's heap after it.
 *   node --expose-gc --import tsx bench/soak/probe.ts <repo> <tasks> <messages> [--src]
 */
import { readFileSync } from 'node:fs';
import { getHeapSpaceStatistics } from 'node:v8';
import { medianOf } from '../support/stats.js';
import { WorkerIsolates, type IsolateHeap } from './isolates.js';
import { soakModules } from './modules.js';

const [repoDir, tasksArg, messagesArg] = process.argv.slice(2) as [string, string, string];
const [TASKS, MESSAGES] = [Number(tasksArg), Number(messagesArg)];
const gcNow = (globalThis as { gc?: () => void }).gc;
const m = await soakModules();

// Every reading follows a full GC in every isolate: the teammates' threads (through the inspector, no hook in
// the teammate) as well as the main thread, so it counts memory kept, not the slack of the moment in five heaps.
const isolates = await WorkerIsolates.attach();
let lastHeaps: IsolateHeap[] = [];
/** The reading as it was taken before (a GC of the main thread only), just ahead of each GC'd one, to compare. */
let lastMainOnly = 0;
async function rssMB(): Promise<number> {
  lastMainOnly = await medianRss();
  lastHeaps = await isolates.collect();
  await isolates.collectMain();
  return medianRss();
}
/** Readings a median is taken of: a short run (the test's, a few tasks) measures nothing, so one. */
const SAMPLES = TASKS >= 1_000 ? 5 : 1;
async function medianRss(): Promise<number> {
  const readings: number[] = [];
  for (let i = 0; i < SAMPLES; i++) {
    gcNow?.();
    await new Promise((r) => setTimeout(r, 200)); // let freed pages go back before reading
    readings.push(process.memoryUsage().rss / 2 ** 20);
  }
  return medianOf(readings);
}

/** A reading at a fifth of each live part, on stderr: a cut-short run still says how the RSS went. */
const FIFTHS = 5;
const readings: { part: string; done: number; rssMB: number }[] = [];
async function reading(part: string, done: number): Promise<void> {
  const rss = await rssMB();
  const line = { phase: 'progress', part, done, rssMB: rss, rssMainGcOnlyMB: lastMainOnly, ...residentKinds(), ...heaps(), ...mainHeapCommitted(), at: new Date().toISOString() };
  readings.push(line);
  console.error(JSON.stringify(line));
}
/** The process's anonymous and file-backed resident memory (/proc/self/smaps_rollup, Linux; empty elsewhere). */
function residentKinds(): { anonMB?: number; fileMB?: number } {
  let text: string;
  try {
    text = readFileSync('/proc/self/smaps_rollup', 'utf8');
  } catch {
    return {};
  }
  const kb = (field: string): number => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(text)?.[1] ?? NaN);
  const anonMB = kb('Anonymous') / 1024;
  return { anonMB, fileMB: kb('Rss') / 1024 - anonMB };
}
/** The main thread's heap as committed (what RSS sees), the young generation apart: used can be flat while committed grows. */
function mainHeapCommitted(): { mainHeapTotalMB: number; mainYoungMB: number } {
  const young = getHeapSpaceStatistics().find((s) => s.space_name === 'new_space')?.space_size ?? 0;
  return { mainHeapTotalMB: process.memoryUsage().heapTotal / 2 ** 20, mainYoungMB: young / 2 ** 20 };
}
/**
 * The heaps after the reading's GCs: the main thread's, each teammate thread's by name (other threads, e.g. tsx's
 * loader, as `thread <id>`), and their sum.
 */
function heaps(): { mainHeapMB: number; workerHeapsMB: Record<string, number>; heapsSumMB: number; workersCommittedMB: number } {
  const mainHeapMB = (gcNow?.(), process.memoryUsage().heapUsed / 2 ** 20);
  const named = new Map(lead.pool.names().map((n) => [threadOf(n), n]));
  const workerHeapsMB: Record<string, number> = {};
  for (const h of lastHeaps) workerHeapsMB[named.get(h.threadId) ?? `thread ${h.threadId}`] = h.usedMB;
  const heapsSumMB = mainHeapMB + Object.values(workerHeapsMB).reduce((a, b) => a + b, 0);
  const workersCommittedMB = lastHeaps.reduce((a, h) => a + h.totalMB, 0);
  return { mainHeapMB, workerHeapsMB, heapsSumMB, workersCommittedMB };
}
const threadOf = (name: string): number | undefined =>
  (lead.pool.channelOf(name) as { threadId?: number } | null)?.threadId;
const atFifth = (i: number, total: number): boolean => total >= FIFTHS && (i + 1) % Math.floor(total / FIFTHS) === 0;

const loaded = await m.loadConfig(repoDir);
if (!loaded.ok) throw new Error(loaded.error);
const gcBegan = performance.now();
const gcReport = await m.collectGarbage(repoDir, loaded.config);
const gcMs = performance.now() - gcBegan;

let listeners: ((type: string) => void)[] = [];
const until = (check: () => boolean, what: string, timeoutMs = 1_800_000): Promise<void> =>
  new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`timed out waiting for ${what}`)), timeoutMs);
    const poll = setInterval(() => test(), 200);
    const test = (): void => {
      if (!check()) return;
      clearTimeout(timer);
      clearInterval(poll);
      listeners = listeners.filter((l) => l !== test);
      resolve();
    };
    listeners.push(test);
    test();
  });

let completed = 0;
let delivered = 0;
const began = performance.now();
const started = await m.Lead.start({
  repoRoot: repoDir,
  onEvent: (e) => {
    if (e.type === 'task_completed') completed++;
    if (e.type === 'message_delivered') delivered++;
    for (const l of [...listeners]) setImmediate(() => l(e.type));
  },
});
if (!started.ok) throw new Error(started.error);
const lead = started.value;
const idle = (): boolean => lead.pool.names().every((n) => lead.pool.stateOf(n)?.state === 'idle');
await until(idle, 'every teammate idle');
const coldStartMs = performance.now() - began;
const rssBefore = await rssMB();
const heapsBefore = heaps();
await reading('cold', 0);

// The stall check as the lead runs it: the in-memory progress, the status files, no event log.
const progress = new m.ProgressTimes();
for (const n of lead.pool.names()) progress.note(n);
const stallRuns: number[] = [];
for (let i = 0; i < 200; i++) {
  const t = performance.now();
  await m.reportStalled(repoDir, loaded.config, { progress: progress.snapshot() });
  stallRuns.push(performance.now() - t);
}

// The tasks go in through the lead's own board: a second store in this process would keep every task it
// created in its index (it does not watch the folder, so it never sees the lead archive them) and that
// memory would be counted as the lead's.
const store = lead.tasks;
for (let i = 0; i < TASKS; i++) {
  const made = await store.create({ id: `live${i}`, subject: `live task ${i}` });
  if (!made.ok) throw new Error(made.error);
  if (i % 200 === 199) await until(() => completed >= i - 400, 'the team to keep up');
  if (atFifth(i, TASKS)) await until(() => completed > i, 'the fifth done').then(() => reading('tasks', i + 1));
}
await until(() => completed >= TASKS && idle(), `${TASKS} tasks completed`);
const rssAfterTasks = await rssMB();
const heapsAfterTasks = heaps();

const mailbox = new m.MailboxStore(repoDir);
const names = lead.pool.names();
for (let i = 0; i < MESSAGES; i++) {
  const sent = await mailbox.send({
    from: 'lead',
    to: names[i % names.length]!,
    type: 'message',
    content: `soak ${i}`,
  });
  if (!sent.ok) throw new Error(sent.error);
  if (i % 500 === 499) await until(() => delivered >= i - 1000, 'deliveries to keep up');
  if (atFifth(i, MESSAGES)) await until(() => delivered > i, 'the fifth delivered').then(() => reading('messages', i + 1));
}
await until(() => delivered >= MESSAGES && idle(), `${MESSAGES} messages delivered`);
const rssAfterMessages = await rssMB();
const heapsAfterMessages = heaps();
// The same team after SETTLE_MS more idle: V8 gives back young-generation and old-space pages only once a
// thread's allocation has gone quiet, so a reading taken as the work ends counts heap slack, not what is kept.
const SETTLE_MS = TASKS >= 1_000 ? 15_000 : 0; // a short run (the test's: a few tasks) measures nothing: no wait
await new Promise((r) => setTimeout(r, SETTLE_MS));
const rssSettled = await rssMB();
const heapsSettled = heaps();
isolates.close();

console.log(
  JSON.stringify({
    phase: 'idle',
    pid: process.pid,
    gcMs,
    gcArchived: gcReport.archivedTasks.length,
    coldStartMs,
    rssBefore,
    rssAfterTasks,
    rssAfterMessages,
    rssSettled,
    // What the RSS readings above follow: a GC in every isolate (main thread and each worker).
    readingsGc: 'every isolate',
    heapsSumBefore: heapsBefore.heapsSumMB,
    heapsSumAfterTasks: heapsAfterTasks.heapsSumMB,
    heapsSumAfterMessages: heapsAfterMessages.heapsSumMB,
    heapsSumSettled: heapsSettled.heapsSumMB,
    heapsBefore,
    heapsAfterMessages,
    readings,
    settleMs: SETTLE_MS,
    // After the first fifth of the tasks: every teammate thread has done real work (warm), for the growth after it.
    rssWarm: readings.find((r) => r.part === 'tasks')?.rssMB ?? null,
    stallRuns,
    boardAfter: store.list().length,
  }),
);
process.stdin.resume();
await new Promise((resolve) => process.stdin.once('end', resolve));
await lead.stop('soak over');
process.exit(0);
