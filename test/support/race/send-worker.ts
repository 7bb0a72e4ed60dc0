// A sender in its own process: says `ready`, waits for `go` on stdin, sends
// `count` messages to `to`, prints `sent <json ids>`.
import { createInterface } from 'node:readline';
import { MailboxStore } from '../../../src/store/mailbox/index.js';

const [repoRoot, from, to, count] = process.argv.slice(2) as [string, string, string, string];

const mailbox = new MailboxStore(repoRoot);
console.log('ready');
await new Promise<void>((resolve) => createInterface({ input: process.stdin }).once('line', () => resolve()));
const sent: string[] = [];
for (let i = 0; i < Number(count); i++) {
  const message = await mailbox.send({ from, to, content: `${from} #${i}` });
  if (!message.ok) throw new Error(message.error);
  sent.push(message.value.id);
}
console.log(`sent ${JSON.stringify(sent)}`);
