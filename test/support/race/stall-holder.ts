// A holder that stops itself inside its critical section: each command takes
// the lock of one file (through the real store), reads it, and just before its
// write commits prints `inside <file>` and sends itself SIGSTOP. The test lets
// another process take the lock over, then sends SIGCONT; the command's outcome
// is printed as `result <json>`. Args: <repoRoot> <staleMs>.
// Commands: `claim <task> <owner>`, `send <to> <text>`, `take <agent>` (prints the contents taken), `fire <job> <slotIso>`,
// `memory <name> <body>` (a memory in <repoRoot>/.memory).
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { writeMemory } from '../../../src/agent/memory/store.js';
import { CronStore } from '../../../src/store/cron/index.js';
import type { LockOptions } from '../../../src/store/lock.js';
import { MailboxStore } from '../../../src/store/mailbox/index.js';
import { TaskStore } from '../../../src/store/tasks/index.js';

const [repoRoot, staleMs] = process.argv.slice(2) as [string, string];
let armed = false;
const lock: LockOptions = {
  staleMs: Number(staleMs),
  beforeCommit: (file) => {
    if (!armed) return;
    armed = false;
    console.log(`inside ${file}`); // a pipe: written before the stop
    process.kill(process.pid, 'SIGSTOP');
  },
};
const tasks = await TaskStore.open(repoRoot, { lock });
const mailbox = new MailboxStore(repoRoot, { lock });
const cron = new CronStore(repoRoot, { lock });

const commands: Record<string, (a: string, b: string) => Promise<unknown>> = {
  claim: async (id, owner) => {
    await tasks.refresh(id); // the index sees a task made since open
    armed = true;
    return tasks.claim(id, owner, 60_000);
  },
  send: (to, content) => ((armed = true), mailbox.send({ from: 'stalled', to, content })),
  take: async (agent) => {
    armed = true;
    return (await mailbox.take(agent)).map((m) => m.content);
  },
  fire: (id, slot) => ((armed = true), cron.markFired(id, slot)),
  memory: (name, body) => (
    (armed = true),
    writeMemory(
      join(repoRoot, '.memory'),
      { name, description: `by the stalled holder`, type: 'project', body },
      lock,
    )
  ),
};

console.log('ready');
for await (const line of createInterface({ input: process.stdin })) {
  const [name, a, b] = line.split(' ') as [string, string, string];
  console.log(`result ${JSON.stringify(await commands[name]!(a, b))}`);
}
