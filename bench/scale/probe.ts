/**
 * One size of the scale benchmark, in a fresh process: cold start of a lead
 * (no teammates) on a `.tasks/` the parent filled, claims and completions that
 * unblock dependants through the lead's task store while its watcher runs,
 * then the same through a task store alone (as in a teammate's worker).
 * Prints one JSON line.  node --import tsx bench/scale/probe.ts <repo> <hubs> <claims>
 */
import { readdirSync, readFileSync } from 'node:fs';
import type { TaskStore } from '../../src/store/tasks/index.js';
import { loadDaemon } from '../support/dist.js';

const [repoRoot, hubsArg, claimsArg] = process.argv.slice(2) as [string, string, string];
const HUBS = Number(hubsArg);
const CLAIMS = Number(claimsArg);
const DEPENDANTS = 10;

/** inotify watches this process holds (every watched file or folder costs one). */
function inotifyWatches(): number {
  let count = 0;
  for (const fd of readdirSync('/proc/self/fdinfo')) {
    try {
      count += (readFileSync(`/proc/self/fdinfo/${fd}`, 'utf8').match(/^inotify wd:/gm) ?? []).length;
    } catch {
      // the fd closed meanwhile
    }
  }
  return count;
}

type Store = TaskStore;

const WARMUP = 5;

/** `count` claims of the next ready task (after a few untimed ones): ms each, and the task files each one read. */
async function claims(store: Store, count: number): Promise<{ ms: number[]; reads: number[] }> {
  for (let i = 0; i < WARMUP; i++) await store.claimNext('w1', 600_000);
  const ms: number[] = [];
  const reads: number[] = [];
  for (let i = 0; i < count; i++) {
    const before = store.readCount;
    const t = performance.now();
    const claimed = await store.claimNext('w1', 600_000);
    ms.push(performance.now() - t);
    reads.push(store.readCount - before);
    if (!claimed.ok || !claimed.value) throw new Error(`claim ${i} found nothing`);
  }
  return { ms, reads };
}

/**
 * Completes hubs `from`…`to - 1` (each claimed first, untimed); ms until all 10 of its dependants are ready
 * in the store's index. In a running lead, the watcher's re-read of an earlier write can briefly put an
 * older version back (see the report), so readiness is polled, not assumed when `complete` returns.
 */
async function unblocks(store: Store, from: number, to: number): Promise<number[]> {
  const ms: number[] = [];
  for (let h = from; h < to; h++) {
    const id = `h${h}`;
    const claimed = await store.claim(id, 'w1', 600_000);
    if (!claimed.ok) throw new Error(`could not claim ${id}: ${claimed.error}`);
    const t = performance.now();
    const done = await store.complete(id, 'w1', 'done');
    if (!done.ok) throw new Error(`${id}: ${done.error}`);
    while (store.dependents(id).filter((d) => store.isReady(d)).length < DEPENDANTS) {
      if (performance.now() - t > 10_000) throw new Error(`${id}: dependants not ready after 10 s`);
      await new Promise((resolve) => setImmediate(resolve));
    }
    ms.push(performance.now() - t);
  }
  return ms;
}

const daemon = await loadDaemon();
// First the lead, in a process that has read no task yet (cold), with its watcher running.
const began = performance.now();
const started = await daemon.Lead.start({ repoRoot });
if (!started.ok) throw new Error(started.error);
const coldStartMs = performance.now() - began;
const lead = started.value;
const watches = inotifyWatches();
const rssMB = process.memoryUsage().rss / 2 ** 20;
const leadClaims = await claims(lead.tasks, CLAIMS);
const leadUnblockMs = await unblocks(lead.tasks, 0, HUBS / 2);
await lead.stop('probe over');

// Then the store alone (what a teammate's worker does), on the rest of the ready tasks and hubs.
const openBegan = performance.now();
const store = await daemon.TaskStore.open(repoRoot);
const openMs = performance.now() - openBegan;
const storeClaims = await claims(store, CLAIMS);
const unblockMs = await unblocks(store, HUBS / 2, HUBS);
console.log(
  JSON.stringify({
    coldStartMs,
    openMs,
    rssMB,
    watches,
    unblockMs,
    leadUnblockMs,
    claimMs: storeClaims.ms,
    claimReads: storeClaims.reads,
    leadClaimMs: leadClaims.ms,
    leadClaimReads: leadClaims.reads,
  }),
);
