// A claimer in its own process, driven by stdin lines so one process serves
// several rounds: `open <repoRoot>` opens the task store and answers `ready`;
// `go` claims until nothing is left and answers `claimed <json ids>`.
// Mode `next` uses claimNext; `direct` calls claim on every task in random order.
// RACE_STALE_MS sets the lock staleness (the stop races use a short one).
import { createInterface } from 'node:readline';
import { TaskStore } from '../../../src/store/tasks/index.js';
import { raceLockOptions } from './race-lock.js';

const [owner, mode] = process.argv.slice(2) as [string, 'next' | 'direct'];
const LEASE_MS = 600_000;

async function claimAllNext(store: TaskStore): Promise<string[]> {
  const claimed: string[] = [];
  for (;;) {
    const next = await store.claimNext(owner, LEASE_MS);
    if (!next.ok) throw new Error(next.error);
    if (!next.value) return claimed;
    claimed.push(next.value.id);
  }
}

async function claimAllDirect(store: TaskStore): Promise<string[]> {
  const ids = store.list().map((t) => t.id);
  for (let i = ids.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [ids[i], ids[j]] = [ids[j]!, ids[i]!];
  }
  const claimed: string[] = [];
  for (const id of ids) if ((await store.claim(id, owner, LEASE_MS)).ok) claimed.push(id);
  return claimed;
}

let store: TaskStore | undefined;
for await (const line of createInterface({ input: process.stdin })) {
  if (line.startsWith('open ')) {
    store = await TaskStore.open(line.slice('open '.length), { lock: raceLockOptions() });
    console.log('ready');
  } else if (line === 'go' && store) {
    const claimed = mode === 'next' ? await claimAllNext(store) : await claimAllDirect(store);
    console.log(`claimed ${JSON.stringify(claimed)}`);
  }
}
