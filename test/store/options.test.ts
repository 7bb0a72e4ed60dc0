/**
 * The stores check their options (test/config/options-property.test.ts
 * generates wrong ones) but keep what they were given: a roster is live, the
 * lead pushes a teammate created later into the array its stores hold.
 */
import { describe, expect, test } from 'vitest';
import { OptionsError } from '../../src/config/options.js';
import { CronStore } from '../../src/store/cron/index.js';
import { MailboxStore, MemoryMailbox } from '../../src/store/mailbox/index.js';
import { TaskStore } from '../../src/store/tasks/index.js';
import { tempRepo } from './temp-repo.js';

describe('store options', () => {
  test('a name pushed to the roster after the store was made is a valid recipient', async () => {
    const repo = await tempRepo();
    const stores = [
      (roster: string[]) => new MailboxStore(repo.root, { roster }),
      (roster: string[]) => new MemoryMailbox({ roster }),
    ];
    for (const make of stores) {
      const roster = ['lead'];
      const mail = make(roster);
      expect((await mail.send({ from: 'lead', to: 'ann', content: 'hi' })).ok).toBe(false);
      roster.push('ann');
      expect((await mail.send({ from: 'lead', to: 'ann', content: 'hi' })).ok).toBe(true);
    }
    const roster = ['lead'];
    const cron = CronStore.inMemory({ roster });
    roster.push('ann');
    expect((await cron.add({ cron: '0 3 * * *', prompt: 'p', to: 'ann' })).ok).toBe(true);
    await repo.cleanup();
  });

  test('a repository path that is not one is refused by name', async () => {
    expect(() => new MailboxStore(42 as never)).toThrow('MailboxStore: repoRoot: expected the path of a repository');
    expect(() => new CronStore('')).toThrow(OptionsError);
    await expect(TaskStore.open(undefined as never)).rejects.toThrow('TaskStore.open: repoRoot: ');
  });

  test('null options from plain JavaScript mean none', async () => {
    const mail = new MemoryMailbox(null as never);
    expect((await mail.send({ from: 'lead', to: 'anyone', content: 'hi' })).ok).toBe(true);
  });
});
