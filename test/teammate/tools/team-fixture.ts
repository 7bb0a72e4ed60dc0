/** A board, mailboxes and protocol answers in a temp folder, fresh for each test (the team tools' tests). */
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import { MailboxStore } from '../../../src/store/mailbox/index.js';
import { TaskStore } from '../../../src/store/tasks/index.js';
import type { ProtocolServices } from '../../../src/teammate/tools/index.js';
import { createToolContext } from '../../../src/tools/context.js';
import type { ToolContext } from '../../../src/tools/types.js';

export const ROSTER = ['ann', 'bob', 'lead', 'user'];

export interface TeamFixture {
  dir: string;
  ctx: ToolContext;
  tasks: TaskStore;
  mailbox: MailboxStore;
  /** The plan requests and shutdown answers the tools made, in order; a plan with "good" in it is approved. */
  answered: unknown[];
  protocol: ProtocolServices;
}

export function useTeamFixture(): TeamFixture {
  const f = { answered: [] as unknown[] } as TeamFixture;
  const protocol: ProtocolServices = (f.protocol = {
    requestPlanApproval: async (plan) => {
      f.answered.push({ plan });
      return { approved: plan.includes('good'), reason: 'because' };
    },
    respondShutdown: async (requestId, approve, reason) => {
      f.answered.push({ requestId, approve, reason });
      return `answered ${requestId}`;
    },
  });
  beforeEach(async () => {
    f.dir = await realpath(await mkdtemp(path.join(os.tmpdir(), 'teamd-team-tools-')));
    f.tasks = await TaskStore.open(f.dir);
    f.mailbox = new MailboxStore(f.dir, { roster: ROSTER });
    f.answered.length = 0;
    const team = { tasks: f.tasks, mailbox: f.mailbox, roster: () => ROSTER, self: 'ann' };
    f.ctx = createToolContext({ root: f.dir, services: { team, protocol } });
  });
  afterEach(() => rm(f.dir, { recursive: true, force: true }));
  return f;
}
