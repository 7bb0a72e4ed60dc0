/**
 * `readTeamStatus` reads its sections (cron, board, inboxes, merges, mailbox
 * problems) at once, not one after another (status.ts): whichever files are
 * broken, its problems come in the same order with the same content as the
 * readers give them one by one — team folders, mailboxes, cron — and the
 * inboxes and board are what their own readers say.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { TeamConfigSchema } from '../../src/config/schema.js';
import { readTeamStatus } from '../../src/observe/status.js';
import { CronStore } from '../../src/store/cron/index.js';
import { MailboxStore } from '../../src/store/mailbox/index.js';
import { TaskStore } from '../../src/store/tasks/index.js';
import { tempRepo } from '../store/temp-repo.js';

const config = TeamConfigSchema.parse({});
let repo: Awaited<ReturnType<typeof tempRepo>>;
beforeEach(async () => (repo = await tempRepo()));
afterEach(async () => repo.cleanup());

const at = '2026-11-30T10:00:00.000Z';
const message = (id: string, to: string) => JSON.stringify({ id, from: 'lead', to, type: 'message', content: `m ${id}`, metadata: {}, ts: at });

/** One breakage per kind, each in its own file; `pick` says which are written. */
const BREAKAGES: Record<string, (root: string) => void> = {
  badInbox: (root) => writeFileSync(join(root, '.mailboxes', 'w1.json'), '{ not json'),
  goodInbox: (root) => writeFileSync(join(root, '.mailboxes', 'w2.json'), `[${message('i1', 'w2')}]`),
  badName: (root) => writeFileSync(join(root, '.mailboxes', 'Bad Name.json'), '[]'),
  badArchive: (root) => writeFileSync(join(root, '.mailboxes', 'archive', 'w3.jsonl'), `${message('a1', 'w3')}\nnot a line\n`),
  goodArchive: (root) => writeFileSync(join(root, '.mailboxes', 'archive', 'w4.jsonl'), `${message('a2', 'w4')}\n`),
  badCron: (root) => writeFileSync(join(root, '.cron', 'nightly.json'), '{"id": "nightly", "cron": 5}'),
  task: (root) => writeFileSync(join(root, '.tasks', 't1.json'), JSON.stringify({ id: 't1', subject: 's', description: '', status: 'pending', owner: null, blockedBy: ['t0'], priority: 0, attempts: 0, lease: null, result: null, notes: [], metadata: {}, createdAt: at, updatedAt: at })),
  badTask: (root) => writeFileSync(join(root, '.tasks', 't2.json'), '{'),
};

it('gives every section and its problems in order, whichever files are broken', async () => {
  await fc.assert(
    fc.asyncProperty(fc.subarray(Object.keys(BREAKAGES)), async (picked) => {
      const root = join(repo.root, `r${Math.random().toString(36).slice(2)}`);
      for (const dir of ['.mailboxes/archive', '.cron', '.tasks/archive', '.team/state']) mkdirSync(join(root, dir), { recursive: true });
      for (const name of picked) BREAKAGES[name]!(root);
      const s = await readTeamStatus(root, config);
      const mailbox = new MailboxStore(root);
      const cron = await new CronStore(root).list();
      expect(s.problems).toEqual([...(await mailbox.problems()), ...cron.problems]);
      expect(s.inboxes).toEqual(await mailbox.inboxSizes());
      const board = await TaskStore.open(root, { normalise: false });
      expect(s.tasks.list.map((t) => t.id)).toEqual(board.list().map((t) => t.id));
      expect(s.tasks.problems).toEqual(board.problems());
    }),
    { numRuns: 25 },
  );
}, 60_000);

it('with every file broken, the mailbox problems come before the cron file', async () => {
  for (const dir of ['.mailboxes/archive', '.cron', '.tasks/archive', '.team/state']) mkdirSync(join(repo.root, dir), { recursive: true });
  for (const write of Object.values(BREAKAGES)) write(repo.root);
  const files = (await readTeamStatus(repo.root, config)).problems.map((p) => p.file);
  expect(files.slice(0, 3)).toEqual(['.mailboxes/Bad Name.json', '.mailboxes/w1.json', '.mailboxes/archive/w3.jsonl:2']);
  expect(new Set(files.slice(3))).toEqual(new Set(['.cron/nightly.json']));
});
