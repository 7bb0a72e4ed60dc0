// A writer that never stops on its own: creates tasks, notes them, claims and
// completes some, sends mail and takes/acks it, adds and fires cron jobs, and
// prints `tick <n>` after each round. It says `ready` and waits for `go` on
// stdin first, so a test can start many at once; the test SIGKILLs it mid-work.
import { createInterface } from 'node:readline';
import { CronStore } from '../../../src/store/cron/index.js';
import { MailboxStore } from '../../../src/store/mailbox/index.js';
import { TaskStore } from '../../../src/store/tasks/index.js';

const [repoRoot, tag] = process.argv.slice(2) as [string, string];
const tasks = await TaskStore.open(repoRoot);
const mailbox = new MailboxStore(repoRoot);
const cron = new CronStore(repoRoot);
const inbox = `inbox-${tag}`;

async function round(n: number): Promise<void> {
  const id = `k${tag}-${n}`;
  const blockedBy = n > 0 ? [`k${tag}-${n - 1}`] : [];
  await tasks.create({ id, subject: `task ${n} of ${tag}`, description: 'x'.repeat(4000), blockedBy });
  await tasks.addNote(`k${tag}-${Math.floor(Math.random() * (n + 1))}`, tag, `note ${n}`);
  const claimed = await tasks.claimNext(tag, 60_000);
  if (claimed.ok && claimed.value) await tasks.complete(claimed.value.id, tag, `done in round ${n}`);
  await mailbox.send({ from: tag, to: inbox, content: `message ${n} `.repeat(200) });
  const batch = await mailbox.take(inbox);
  if (n % 2) await mailbox.ack(inbox, batch.map((m) => m.id));
  const job = await cron.add({ id: `c${tag}-${n}`, cron: '*/5 * * * *', prompt: `prompt ${n}` });
  if (job.ok) await cron.markFired(job.value.id, new Date().toISOString());
}

console.log('ready');
await new Promise<void>((resolve) => createInterface({ input: process.stdin }).once('line', () => resolve()));
for (let n = 0; ; n++) {
  await round(n);
  console.log(`tick ${n}`);
}
