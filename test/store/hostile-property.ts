/**
 * The property behind the generated hostile-file tests (normal suite and
 * faults): a folder of generated hostile entries beside valid files never
 * makes a store throw, block or read the content behind a link; every entry
 * is a problem naming its file; the valid task, mail and cron job still work.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { CronStore } from '../../src/store/cron/index.js';
import { MailboxStore } from '../../src/store/mailbox/index.js';
import { FILE_LIMITS } from '../../src/store/team-file.js';
import { TaskStore } from '../../src/store/tasks/index.js';
import type { FileProblem } from '../../src/store/types.js';
import { placeEntry, SECRET, type HostileEntry } from './hostile-entries.js';

const FOLDERS = ['.tasks', '.mailboxes', '.cron'] as const;

const named = (problems: FileProblem[], folder: string, count: number): string[] =>
  Array.from({ length: count }, (_, i) => `${folder}/h${i}.json`).filter((f) => !problems.some((p) => p.file === f));

export async function hostileFolderHolds(entries: HostileEntry[]): Promise<void> {
  const root = mkdtempSync(join(tmpdir(), 'teamd-hostile-prop-'));
  try {
    const repo = join(root, 'repo');
    const outside = join(root, 'outside');
    for (const f of FOLDERS) mkdirSync(join(repo, f), { recursive: true });
    writeFileSync(join(repo, 'README.md'), 'inside\n');
    entries.forEach((e, i) => {
      for (const f of FOLDERS) placeEntry(e, join(repo, f, `h${i}.json`), outside, join(repo, 'README.md'));
    });
    writeFileSync(join(repo, '.tasks', 'ok.json'), JSON.stringify({ subject: 'fine' }));
    const mail = new MailboxStore(repo);
    expect((await mail.send({ from: 'user', to: 'ann', content: 'hi' })).ok).toBe(true);
    const cron = new CronStore(repo);
    expect((await cron.add({ id: 'ok-cron', cron: '* * * * *', prompt: 'p', to: 'ann' })).ok).toBe(true);

    const tasks = await TaskStore.open(repo);
    expect(named(tasks.problems(), '.tasks', entries.length)).toEqual([]);
    expect(tasks.list().map((t) => t.id)).toEqual(['ok']);
    expect((await tasks.claim('ok', 'ann', 60_000)).ok).toBe(true);
    const mailProblems = await mail.problems();
    expect(named(mailProblems, '.mailboxes', entries.length)).toEqual([]);
    expect((await mail.take('ann')).map((m) => m.content)).toEqual(['hi']);
    const jobs = await cron.list();
    expect(named(jobs.problems, '.cron', entries.length)).toEqual([]);
    expect(jobs.jobs.map((j) => j.id)).toEqual(['ok-cron']);
    expect(JSON.stringify([tasks.problems(), mailProblems, jobs.problems])).not.toContain(SECRET);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

/** The cap the generated "big" entries go over: the smallest of the folders' caps. */
export const SMALLEST_CAP = Math.min(FILE_LIMITS.task, FILE_LIMITS.cron);
