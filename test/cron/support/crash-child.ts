/**
 * A daemon that dies by SIGKILL at one point of a fire:
 *   before-deliver        lastFired written, nothing delivered
 *   after-deliver         the message is in the inbox, pendingDelivery not yet cleared
 *   after-mark-delivered  everything written
 * Usage: node --import tsx crash-child.ts <repo> <mode> <start ISO>
 */
import { ManualClock } from '../../../src/cron/clock.js';
import { CronScheduler } from '../../../src/cron/scheduler.js';
import type { CronJobSource } from '../../../src/cron/types.js';
import { CronStore } from '../../../src/store/cron/index.js';
import { deliverToInbox } from './harness.js';

const [root = '', mode = '', start = ''] = process.argv.slice(2);
const clock = new ManualClock(new Date(start));
const store = new CronStore(root, { now: () => new Date(clock.now()) });
const die = (): never => {
  process.kill(process.pid, 'SIGKILL');
  throw new Error('unreachable');
};

const source: CronJobSource = {
  list: () => store.list(),
  markFired: (id, slot) => store.markFired(id, slot),
  markDelivered: async (id) => {
    const done = await store.markDelivered(id);
    return mode === 'after-mark-delivered' ? die() : done;
  },
};

const scheduler = new CronScheduler({
  source,
  clock,
  onEvent: () => {},
  deliver: async (job, slot) => {
    if (mode === 'before-deliver') die();
    await deliverToInbox(root, job.to, job, slot);
    if (mode === 'after-deliver') die();
    return 'delivered';
  },
});

await scheduler.start();
await clock.advance(60_000, () => scheduler.idle());
process.exit(3); // the kill point was never reached
