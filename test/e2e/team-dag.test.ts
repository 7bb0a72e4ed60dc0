import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Lead } from '../../src/lead/lead.js';
import { readEvents } from '../../src/observe/event-log.js';
import { genericTaskScript, makeTeamRepo, startLead, until, type TeamRepo } from './support/harness.js';

/** 12 tasks: three chains that fan in twice, plus independent ones. */
const DAG: Record<string, string[]> = {
  t1: [], t2: [], t3: [], t4: ['t1'], t5: ['t2'], t6: ['t3'],
  t7: ['t4', 't5'], t8: ['t6'], t9: ['t7', 't8'], t10: [], t11: ['t10'], t12: ['t9', 't11'],
};

describe('a team of three on a 12-task DAG', () => {
  let repo: TeamRepo;
  let lead: Lead | undefined;
  afterEach(async () => {
    await lead?.stop('test over');
    repo.cleanup();
  });

  it('completes every task once, in dependency order, merged into the integration branch', async () => {
    repo = makeTeamRepo({
      script: genericTaskScript(),
      config: { teammates: [{ name: 'ann' }, { name: 'bob' }, { name: 'cid' }], worktrees: { mode: 'per-task' } },
    });
    for (const [id, deps] of Object.entries(DAG)) repo.writeTask(id, { subject: `make ${id}`, blockedBy: deps });
    const started = await startLead(repo);
    lead = started.lead;
    const l = lead;
    await until(l, () => l.tasks.list().filter((t) => t.status === 'completed').length === 12, 170_000, 'all 12 tasks completed');

    const events = readEvents(repo.dir);
    const completedAt = new Map<string, number>();
    for (const e of events) if (e.type === 'task_completed') {
      expect(completedAt.has(e.task), `${e.task} completed twice`).toBe(false);
      completedAt.set(e.task, Date.parse(e.ts));
    }
    for (const e of events) if (e.type === 'task_claimed') {
      for (const dep of DAG[e.task] ?? []) {
        expect(completedAt.get(dep)! <= Date.parse(e.ts), `${e.task} claimed before ${dep} completed`).toBe(true);
      }
    }
    const claimers = new Set(events.filter((e) => e.type === 'task_claimed').map((e) => (e as { agent: string }).agent));
    expect(claimers.size).toBeGreaterThan(1);
    // every task's file is on the integration branch, once
    const files = repo.git('ls-tree', '--name-only', 'teamd/integration', 'out/').trim().split('\n');
    expect(files.sort()).toEqual(Object.keys(DAG).map((id) => `out/${id}.txt`).sort());
    // the main checkout was never touched
    expect(repo.git('status', '--porcelain', '--', '.', ':!.tasks', ':!.mailboxes', ':!.team', ':!.cron').trim()).toBe('');
    expect(repo.git('rev-parse', '--abbrev-ref', 'HEAD').trim()).toBe('main');
    expect(existsSync(join(repo.dir, 'out'))).toBe(false);
    // transcripts per agent and session
    const transcripts = join(repo.dir, '.team', 'state', 'transcripts');
    const sessions = readdirSync(transcripts).flatMap((agent) => readdirSync(join(transcripts, agent)));
    expect(sessions.length).toBeGreaterThanOrEqual(12);
    const header = JSON.parse(readFileSync(join(transcripts, 'ann', readdirSync(join(transcripts, 'ann'))[0]!), 'utf8').split('\n')[0]!);
    expect(header.type).toBe('header');
  }, 180_000);
});
