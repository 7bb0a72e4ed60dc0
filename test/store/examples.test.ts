import { cp, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkTeamFiles } from '../../src/store/check.js';
import { MailboxStore } from '../../src/store/mailbox/index.js';
import { TaskStore } from '../../src/store/tasks/index.js';
import { DroppedTaskSchema, InboxSchema, TaskSchema } from '../../src/store/types.js';
import { tempRepo } from './temp-repo.js';

const project = fileURLToPath(new URL('../../', import.meta.url));
const TASKS = join(project, '.tasks.example');
const MAILBOXES = join(project, '.mailboxes.example');

let repo: Awaited<ReturnType<typeof tempRepo>>;
beforeEach(async () => {
  repo = await tempRepo();
  await cp(TASKS, join(repo.root, '.tasks'), { recursive: true });
  await cp(MAILBOXES, join(repo.root, '.mailboxes'), { recursive: true });
});
afterEach(async () => repo.cleanup());

describe('the example team a user can copy', () => {
  it('has 5–8 tasks, each a full task or a valid dropped file', async () => {
    const names = await readdir(TASKS);
    expect(names.length).toBeGreaterThanOrEqual(5);
    expect(names.length).toBeLessThanOrEqual(8);
    for (const name of names) {
      const raw = JSON.parse(await readFile(join(TASKS, name), 'utf8'));
      const schema = 'createdAt' in raw ? TaskSchema : DroppedTaskSchema;
      expect(schema.safeParse(raw).success, name).toBe(true);
    }
  });

  it('passes every check, with a dependency chain and a fan-in', async () => {
    const report = await checkTeamFiles(repo.root);
    expect(report.problems).toEqual([]);
    expect(report.counts).toMatchObject({ inboxes: 3 });
    const tasks = await TaskStore.open(repo.root);
    expect(tasks.ready().map((t) => t.id)).toEqual(['fix-date-parsing', 'csv-writer']);
    expect(tasks.blockers('release-notes')).toEqual(['docs-export']);
    expect(tasks.blockers('docs-export')).toEqual(['export-command', 'csv-writer-tests']);
    expect(tasks.get('csv-writer-tests')?.owner).toBe('worker-2');
  });

  it('has inboxes with messages of several types and an archive', async () => {
    const types = new Set<string>();
    for (const name of (await readdir(MAILBOXES)).filter((n) => n.endsWith('.json'))) {
      for (const m of InboxSchema.parse(JSON.parse(await readFile(join(MAILBOXES, name), 'utf8')))) types.add(m.type);
    }
    expect(types.size).toBeGreaterThanOrEqual(4);
    const mail = new MailboxStore(repo.root);
    expect(await mail.history('worker-1')).toHaveLength(2);
    expect(await mail.problems()).toEqual([]);
  });
});
