// A store client in its own process, so a test can cap the size of files it
// may write (RLIMIT_FSIZE, set with `prlimit` from outside): a write past the
// cap fails half-way with EFBIG, like a full disk. Says `ready <pid>`, then
// runs one command per stdin line and prints one JSON result line:
//   update-task <id> <bytes>    a task description of that size
//   send <to> <bytes>           a message of that size
//   take-ack <agent>            recover stale batches, take, and acknowledge
import { createInterface } from 'node:readline';
import { MailboxStore } from '../../../src/store/mailbox/index.js';
import { TaskStore } from '../../../src/store/tasks/index.js';

process.on('SIGXFSZ', () => undefined); // the write then fails with EFBIG instead of killing us
const [repoRoot] = process.argv.slice(2) as [string];
const tasks = await TaskStore.open(repoRoot);
const mailbox = new MailboxStore(repoRoot);

async function run(line: string): Promise<unknown> {
  const [command, a = '', b = '0'] = line.split(' ');
  if (command === 'update-task')
    return tasks.update(a, (t) => ({ ...t, description: 'd'.repeat(Number(b)) }));
  if (command === 'send') return mailbox.send({ from: 'writer', to: a, content: 'm'.repeat(Number(b)) });
  if (command === 'take-ack') {
    await mailbox.recoverStale(a, 0);
    const batch = await mailbox.take(a);
    return mailbox.ack(
      a,
      batch.map((m) => m.id),
    );
  }
  return { ok: false, error: `unknown command ${command}` };
}

console.log(`ready ${process.pid}`);
for await (const line of createInterface({ input: process.stdin })) {
  try {
    console.log(JSON.stringify(await run(line)));
  } catch (err) {
    console.log(JSON.stringify({ ok: false, thrown: String(err) }));
  }
}
