/**
 * One sender of the contention benchmark: says `ready`, waits for a line on
 * stdin, sends `count` messages to `to` as fast as it can, and prints one JSON
 * line: the ids it was told were sent, the ms of each send, and any errors.
 *   node --import tsx bench/mailbox-contention/sender.ts <repo> <from> <to> <count>
 */
import { createInterface } from 'node:readline';
import { loadDaemon } from '../support/dist.js';

const [repoRoot, from, to, count] = process.argv.slice(2) as [string, string, string, string];
const { MailboxStore } = await loadDaemon();
const mailbox = new MailboxStore(repoRoot);
console.log('ready');
await new Promise<void>((resolve) => createInterface({ input: process.stdin }).once('line', () => resolve()));
const ids: string[] = [];
const ms: number[] = [];
const errors: string[] = [];
for (let i = 0; i < Number(count); i++) {
  const t = performance.now();
  const sent = await mailbox.send({ from, to, content: `${from} #${i}` });
  ms.push(performance.now() - t);
  if (sent.ok) ids.push(sent.value.id);
  else errors.push(sent.error);
}
console.log(JSON.stringify({ ids, ms, errors }));
