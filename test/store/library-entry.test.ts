import { describe, expect, it } from 'vitest';
import * as teamd from '../../src/index.js';

describe('the library entry (package.json exports ".")', () => {
  it('exports the stores and the file schemas', () => {
    for (const name of [
      'TaskStore',
      'MailboxStore',
      'CronStore',
      'TaskSchema',
      'MessageSchema',
      'CronJobSchema',
      'teamPaths',
      'withLock',
    ]) {
      expect(teamd, name).toHaveProperty(name);
    }
    expect(teamd.TaskSchema.safeParse({ subject: 'x' }).success).toBe(false); // a full task needs its timestamps
    expect(teamd.DroppedTaskSchema.safeParse({ subject: 'x' }).success).toBe(true);
  });
});
