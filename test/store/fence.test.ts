/**
 * Fenced writes (issue 16, item 6): a holder stopped inside its critical
 * section — after it read the file, just before its write commits — for
 * longer than the lock's staleness loses the lock to another process, and
 * when it is continued its write fails as a lost race instead of undoing the
 * other process's work. The holder is a real process that stops itself
 * (SIGSTOP) at that moment; the test is the other process.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { CronStore } from '../../src/store/cron/index.js';
import { MailboxStore } from '../../src/store/mailbox/index.js';
import { TaskStore } from '../../src/store/tasks/index.js';
import { useStalledHolder } from '../support/race/stalled-holder.js';

const STALE_MS = 300;
const lock = { staleMs: STALE_MS };

const holder = useStalledHolder('teamd-fence-', STALE_MS);
const repo = holder;
const { stallInside, resume } = holder;

it('tasks: a claimer stopped past the staleness cannot put back a task another process claimed and completed', async () => {
  const tasks = await TaskStore.open(repo.root, { lock });
  expect((await tasks.create({ id: 't1', subject: 'one task' })).ok).toBe(true);
  await stallInside('claim t1 ann');
  expect((await tasks.claim('t1', 'bob', 60_000)).ok).toBe(true); // takes the lock over after STALE_MS
  expect((await tasks.complete('t1', 'bob', 'done by bob')).ok).toBe(true);
  const stalled = await resume();
  expect(stalled.ok).toBe(false);
  expect(stalled.error).toMatch(/lost race/);
  const onDisk = JSON.parse(readFileSync(join(repo.root, '.tasks', 't1.json'), 'utf8'));
  expect(onDisk).toMatchObject({ status: 'completed', owner: 'bob', result: { summary: 'done by bob' } });
});

it('mailboxes: a recipient stopped past the staleness in its take neither blocks senders nor loses or repeats their mail', async () => {
  const mailbox = new MailboxStore(repo.root, { lock });
  expect((await mailbox.send({ from: 'user', to: 'ann', content: 'before' })).ok).toBe(true);
  await stallInside('take ann');
  // Senders take no lock: they go straight through while the recipient holds its inbox lock, stopped.
  for (let i = 0; i < 5; i++) expect((await mailbox.send({ from: 'bob', to: 'ann', content: `meanwhile ${i}` })).ok).toBe(true);
  const taken = (await mailbox.take('ann')).map((m) => m.content); // takes the lock over after STALE_MS
  expect(taken).toEqual(['before', 'meanwhile 0', 'meanwhile 1', 'meanwhile 2', 'meanwhile 3', 'meanwhile 4']);
  const stalled = await resume();
  expect(stalled).toEqual([]); // its write failed as a lost race: it handed out nothing
  expect(await mailbox.take('ann')).toEqual([]);
  expect((await mailbox.peek('ann')).map((m) => m.content)).toEqual(taken);
  expect(await mailbox.problems()).toEqual([]);
});

it('cron: a scheduler stopped past the staleness does not move lastFired back over a later fire', async () => {
  const cron = new CronStore(repo.root, { lock });
  expect((await cron.add({ id: 'c1', cron: '* * * * *', prompt: 'tick' })).ok).toBe(true);
  await stallInside('fire c1 2026-12-01T10:00:00.000Z');
  expect((await cron.markFired('c1', '2026-12-01T10:01:00.000Z')).ok).toBe(true);
  const stalled = await resume();
  expect(stalled.ok).toBe(false);
  expect(stalled.error).toMatch(/lost race/);
  expect(await cron.get('c1')).toMatchObject({ lastFired: '2026-12-01T10:01:00.000Z' });
});

it('a holder stopped for less than the staleness keeps its lock and its write goes through', async () => {
  const tasks = await TaskStore.open(repo.root, { lock: { staleMs: 30_000 } });
  expect((await tasks.create({ id: 't2', subject: 'another task' })).ok).toBe(true);
  await stallInside('claim t2 ann');
  const contender = tasks.claim('t2', 'bob', 60_000); // waits for the lock
  const outcome = await resume();
  expect(outcome.ok).toBe(true);
  expect((await contender).ok).toBe(false); // refused: ann holds it
  const onDisk = JSON.parse(readFileSync(join(repo.root, '.tasks', 't2.json'), 'utf8'));
  expect(onDisk).toMatchObject({ status: 'in_progress', owner: 'ann' });
});
