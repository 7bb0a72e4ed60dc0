// A sender in its own process: says `ready`, waits for `go` on stdin, sends
// `count` messages to `to`, prints `sent <json ids>`. A send that lost its
// lock (a stall past the staleness) wrote nothing, so it is sent again.
// Each id is also printed as soon as its send returned (`one <id>`), so a
// test that kills the sender knows what it was told was sent.
import { createInterface } from 'node:readline';
import { MailboxStore } from '../../../src/store/mailbox/index.js';
import { raceLockOptions } from './race-lock.js';

const [repoRoot, from, to, count] = process.argv.slice(2) as [string, string, string, string];

const mailbox = new MailboxStore(repoRoot, { lock: raceLockOptions() });
console.log('ready');
await new Promise<void>((resolve) => createInterface({ input: process.stdin }).once('line', () => resolve()));
const sent: string[] = [];
for (let i = 0; i < Number(count); i++) {
  let message = await mailbox.send({ from, to, content: `${from} #${i}` });
  while (!message.ok && /lost race/.test(message.error))
    message = await mailbox.send({ from, to, content: `${from} #${i}` });
  if (!message.ok) throw new Error(message.error);
  sent.push(message.value.id);
  console.log(`one ${message.value.id}`);
}
console.log(`sent ${JSON.stringify(sent)}`);
