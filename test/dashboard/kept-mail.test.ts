/**
 * An idle `teamd top` read every inbox (and, for an empty one, the archive)
 * three times a refresh, for a mail panel that had not changed (issue 24):
 * the panel is kept until a watcher sees `.mailboxes/` change, and read whole
 * every minute anyway. Kept must mean unchanged: mail sent shows at the next
 * refresh after the hint.
 */
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { TeamConfigSchema } from '../../src/config/schema.js';
import { KeptMail, MAIL_FULL_READ_MS, mailboxViews } from '../../src/dashboard/kept-mail.js';
import { createTeamSource } from '../../src/dashboard/source.js';
import { readTeamStatus } from '../../src/observe/status.js';
import { MailboxStore } from '../../src/store/mailbox/index.js';
import { tempRepo } from '../store/temp-repo.js';

let repo: Awaited<ReturnType<typeof tempRepo>>;
beforeEach(async () => void (repo = await tempRepo('teamd-kept-mail-')));
afterEach(async () => repo.cleanup());
const config = TeamConfigSchema.parse({ teammates: [{ name: 'w1' }] });
const send = async (content: string) => expect((await new MailboxStore(repo.root).send({ from: 'lead', to: 'w1', content })).ok).toBe(true);
const latestFor = (views: Awaited<ReturnType<typeof mailboxViews>>, agent: string) =>
  views.find((v) => v.agent === agent)?.latest?.content ?? null;

it('kept without a hint, read again after one, and whole after a minute', async () => {
  await send('first');
  const mail = new KeptMail(repo.root, config);
  const t0 = Date.now();
  const first = await mail.current(true, t0);
  expect(latestFor(first, 'w1')).toBe('first');
  await send('second');
  expect(await mail.current(true, t0 + 1)).toBe(first); // no hint: the same views, no read
  expect(latestFor(await mail.current(false, t0 + 2), 'w1')).toBe('second'); // unwatched: always read
  await send('third');
  mail.changed(join(repo.root, '.tasks')); // another folder's hint changes nothing
  expect(latestFor(await mail.current(true, t0 + 3), 'w1')).toBe('second');
  mail.changed(join(repo.root, '.mailboxes'));
  expect(latestFor(await mail.current(true, t0 + 4), 'w1')).toBe('third');
  await send('fourth');
  expect(latestFor(await mail.current(true, t0 + 4 + MAIL_FULL_READ_MS + 1), 'w1')).toBe('fourth');
});

it("the live source shows mail sent after its first read once the watcher has seen it", async () => {
  await send('before');
  const source = createTeamSource(repo.root, config, { refreshMs: 3_600_000, settleMs: 10 });
  expect(latestFor((await source.load()).mail, 'w1')).toBe('before');
  let changed!: () => void;
  const seen = new Promise<void>((r) => (changed = r));
  const stop = source.watch(() => changed());
  try {
    await send('after');
    await seen;
    expect(latestFor((await source.load()).mail, 'w1')).toBe('after');
  } finally {
    stop();
  }
});

it('the mail panel is what a fresh read gives, and top asks the status for no inbox scan', async () => {
  await send('one');
  expect((await createTeamSource(repo.root, config).load()).mail).toEqual(await mailboxViews(repo.root, config));
  const full = await readTeamStatus(repo.root, config);
  const shown = await readTeamStatus(repo.root, config, Date.now(), undefined, { inboxesAndProblems: false });
  expect(full.inboxes).toEqual({ w1: 1 });
  expect(shown.inboxes).toEqual({});
  expect({ ...shown, inboxes: full.inboxes, problems: full.problems }).toEqual(full);
});
