/**
 * Writes that come in bursts: the lead's view must end at the last write even
 * when a file changes several times within a few milliseconds, and a message
 * sent just after the previous one was acknowledged reaches an idle teammate
 * at once, not at its idle re-check. Both were lost once (the watcher of the
 * time, chokidar, dropped a second change of a path within 50 ms); the
 * watcher now coalesces hits per file and always reads after the last one
 * (src/lead/watcher.ts).
 */
import { renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { MailboxStore } from '../../src/store/mailbox/index.js';
import { TaskSchema } from '../../src/store/types.js';
import { makeTeamRepo, startLead, until, teamPerTest } from '../e2e/support/harness.js';

const team = teamPerTest();

/** A complete task file, renamed into place (a partial one would be normalised: a write of the lead's own). */
function writeTaskFile(dir: string, id: string, subject: string): void {
  const now = new Date().toISOString();
  writeFileSync(
    join(dir, '.tasks', `.${id}.tmp`),
    JSON.stringify(TaskSchema.parse({ id, subject, createdAt: now, updatedAt: now })),
  );
  renameSync(join(dir, '.tasks', `.${id}.tmp`), join(dir, '.tasks', `${id}.json`));
}

it('the lead ends at the last of several writes of a task file made within 50 ms', async () => {
  const r = team.repo(makeTeamRepo({
    script: { rules: [] },
    config: { teammates: [], worktrees: { mode: 'off' } },
  }));
  const l = team.lead((await startLead(r)).lead);
  writeTaskFile(r.dir, 'w', 'version 0');
  await until(l, () => l.tasks.get('w')?.subject === 'version 0', 10_000, 'the first version');
  for (let v = 1; v <= 3; v++) {
    writeTaskFile(r.dir, 'w', `version ${v}`); // several writes within a few milliseconds
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  await until(l, () => l.tasks.get('w')?.subject === 'version 3', 3_000, 'the last version in the index');
}, 30_000);

it('a message sent right after the previous one was acknowledged reaches the idle teammate without waiting for its idle re-check', async () => {
  const r = team.repo(makeTeamRepo({
    script: {
      rules: [
        {
          conversation: 'You have new messages',
          times: 'always',
          content: [{ type: 'text', text: 'Noted.' }],
        },
      ],
    },
    config: { teammates: [{ name: 'ann' }], worktrees: { mode: 'off' } },
  }));
  const started = await startLead(r, { idleRecheckMs: 60_000 }); // a missed wake would cost a minute
  const l = team.lead(started.lead);
  await until(l, () => l.pool.stateOf('ann')?.state === 'idle', 60_000, 'ann to be idle');
  const mailbox = new MailboxStore(r.dir);
  for (let i = 0; i < 5; i++) {
    // Sent at once after the acknowledgement rewrote the inbox: two changes of one file close together.
    const sent = await mailbox.send({ from: 'user', to: 'ann', content: `message ${i}` });
    if (!sent.ok) throw new Error(sent.error);
    await until(
      l,
      () => started.events.some((e) => e.type === 'message_delivered' && e.id === sent.value.id),
      10_000,
      `message ${i} to be delivered`,
    );
  }
  expect(started.events.filter((e) => e.type === 'message_delivered')).toHaveLength(5);
}, 90_000);
