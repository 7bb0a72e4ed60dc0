// A recipient in its own process: hands stale batches out again
// (`recoverStale`, as a restarted teammate does), then takes and acks
// `agent`'s mail until stdin says `stop` and the inbox is empty. Prints
// `took <json ids>` after each take and `acked <json ids>` after each ack,
// then `done`. Killed between the two lines, its batch comes back to the next one.
import { createInterface } from 'node:readline';
import { MailboxStore } from '../../../src/store/mailbox/index.js';
import { raceLockOptions } from './race-lock.js';

const [repoRoot, agent] = process.argv.slice(2) as [string, string];
const mailbox = new MailboxStore(repoRoot, { lock: raceLockOptions() });
let stopping = false;
createInterface({ input: process.stdin }).on('line', (l) => (stopping ||= l === 'stop'));

const print = (word: string, ids: string[]): void => console.log(`${word} ${JSON.stringify(ids)}`);
print('took', (await mailbox.recoverStale(agent, 0)).map((m) => m.id));
console.log('ready');
for (;;) {
  const batch = await mailbox.take(agent);
  const ids = batch.map((m) => m.id);
  if (ids.length) {
    print('took', ids);
    const acked = await mailbox.ack(agent, ids);
    if (!acked.ok) throw new Error(acked.error);
    print('acked', ids);
  } else if (stopping && (await mailbox.peek(agent)).length === 0) break;
  else await new Promise((r) => setTimeout(r, 2));
}
console.log('done');
