import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CronStore } from '../../src/store/cron/index.js';
import { MailboxStore } from '../../src/store/mailbox/index.js';
import { formatProblem } from '../../src/store/problems.js';
import { TaskStore } from '../../src/store/tasks/index.js';
import { snapshotTree, tempRepo } from './temp-repo.js';

const TRAVERSAL = ['../x', '/etc/passwd', 'a/b', '', 'x'.repeat(200), '..', '../../outside'];

let repo: Awaited<ReturnType<typeof tempRepo>>;
/** The repository lives one level down, so a file written next to it would show in the snapshot. */
let root: string;
beforeEach(async () => {
  repo = await tempRepo('teamd-bad-input-');
  root = join(repo.root, 'repo');
  await mkdir(join(root, '.tasks'), { recursive: true });
});
afterEach(async () => repo.cleanup());

const put = (path: string, text: string) => writeFile(join(root, path), text);

describe('bad task files are reported with file and field, skipped, never thrown', () => {
  it('malformed JSON, wrong types, unknown fields, bad names, cycles and dangling deps', async () => {
    await put('.tasks/broken.json', '{"subject": "half');
    await put('.tasks/types.json', JSON.stringify({ subject: 7, priority: 'high' }));
    await put('.tasks/extra.json', JSON.stringify({ subject: 'x', colour: 'blue' }));
    await put('.tasks/list.json', '[1, 2]');
    await put('.tasks/bad name.json', JSON.stringify({ subject: 'x' }));
    await put('.tasks/deps.json', JSON.stringify({ subject: 'x', blockedBy: ['../x', 'ghost'] }));
    await put('.tasks/dangling.json', JSON.stringify({ subject: 'x', blockedBy: ['ghost'] }));
    await put('.tasks/cyc-a.json', JSON.stringify({ subject: 'a', blockedBy: ['cyc-b'] }));
    await put('.tasks/cyc-b.json', JSON.stringify({ subject: 'b', blockedBy: ['cyc-a'] }));
    await put('.tasks/fine.json', JSON.stringify({ subject: 'fine' }));

    const store = await TaskStore.open(root);
    const lines = store.problems().map(formatProblem).sort();
    expect(lines).toEqual([
      expect.stringMatching(/^\.tasks\/bad name\.json: file name is not a valid task id: must match/),
      expect.stringMatching(/^\.tasks\/broken\.json: invalid JSON: /),
      '.tasks/cyc-a.json: blockedBy: dependency cycle among cyc-a, cyc-b',
      '.tasks/cyc-b.json: blockedBy: dependency cycle among cyc-a, cyc-b',
      '.tasks/dangling.json: blockedBy.0: no task "ghost"',
      expect.stringMatching(/^\.tasks\/deps\.json: blockedBy\.0: must match/),
      '.tasks/deps.json: blockedBy.0: must not contain ".."',
      '.tasks/extra.json: colour: unknown field',
      '.tasks/list.json: must be a JSON object',
      expect.stringMatching(/^\.tasks\/types\.json: priority: .*expected number/),
      expect.stringMatching(/^\.tasks\/types\.json: subject: .*expected string/),
    ]);
    expect(
      store
        .list()
        .map((t) => t.id)
        .sort(),
    ).toEqual(['cyc-a', 'cyc-b', 'dangling', 'fine']);
    expect(store.ready().map((t) => t.id)).toEqual(['fine']);
  });
});

describe('traversal ids never become paths', () => {
  it.each(TRAVERSAL)(
    '%j is refused by every store call, and nothing outside the folders changes',
    async (id) => {
      const before = await snapshotTree(repo.root);
      const tasks = await TaskStore.open(root);
      const mail = new MailboxStore(root);
      const cron = new CronStore(root);
      const refusals = [
        await tasks.create({ id, subject: 'x' }),
        await tasks.create({ subject: 'x', blockedBy: [id] }),
        await tasks.create({ subject: 'x', owner: id }),
        await tasks.update(id, (t) => t),
        await tasks.claim(id, 'w1', 1000),
        await tasks.cancel(id),
        await tasks.addNote(id, 'w', 'x'),
        await mail.send({ from: 'user', to: id, content: 'x' }),
        await mail.ack(id, ['m1']),
        await cron.add({ id, cron: '* * * * *', prompt: 'x' }),
        await cron.add({ cron: '* * * * *', prompt: 'x', to: id }),
        await cron.remove(id),
        await cron.markFired(id, new Date().toISOString()),
      ];
      for (const r of refusals) expect(r.ok).toBe(false);
      expect(tasks.get(id)).toBeUndefined();
      expect((await tasks.refresh(id)).kind).not.toBe('updated');
      expect(await mail.peek(id)).toEqual([]);
      expect(await mail.take(id)).toEqual([]);
      expect(await mail.history(id)).toEqual([]);
      expect(await mail.recoverStale(id, 0)).toEqual([]);
      expect(await cron.get(id)).toBeUndefined();
      expect(await snapshotTree(repo.root)).toEqual(before);
    },
  );

  it('error messages say which field and why', async () => {
    const tasks = await TaskStore.open(root);
    expect(await tasks.create({ id: '../x', subject: 'x' })).toEqual({
      ok: false,
      error:
        'id: must match ^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$ (letters, digits, . _ -; no slashes); id: must not contain ".."',
    });
    const mail = new MailboxStore(root);
    const sent = await mail.send({ from: 'user', to: '/etc/passwd', content: 'x' });
    expect(sent.ok === false && sent.error).toMatch(/^to: must match/);
  });
});
