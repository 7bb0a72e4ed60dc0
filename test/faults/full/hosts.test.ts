/**
 * Out-of-process teammates at full size (`npm run test:faults`): the demo with
 * process teammates, and the e2e suite's 12-task DAG on process and sandbox
 * teammates. test/teammate/hosts/ has the reduced versions of the normal suite.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { defaultDemoModel, runDemo } from '../../../src/demo/demo.js';
import { readEvents } from '../../../src/observe/event-log.js';
import { findBwrap } from '../../../src/teammate/hosts/sandbox.js';
import { genericTaskScript, makeTeamRepo, startLead, teamPerTest, until } from '../../e2e/support/harness.js';

const DAG: Record<string, string[]> = {
  t1: [], t2: [], t3: [], t4: ['t1'], t5: ['t2'], t6: ['t3'],
  t7: ['t4', 't5'], t8: ['t6'], t9: ['t7', 't8'], t10: [], t11: ['t10'], t12: ['t9', 't11'],
};

let demoDir = '';
afterEach(() => {
  if (demoDir) rmSync(join(demoDir, '..'), { recursive: true, force: true });
  demoDir = '';
});
const team = teamPerTest();

it('the demo completes with process teammates', async () => {
  demoDir = join(mkdtempSync(join(tmpdir(), 'teamd-demo-process-')), 'repo');
  const lines: string[] = [];
  const result = await runDemo({ dir: demoDir, model: defaultDemoModel({}), host: 'process', out: (l) => lines.push(l) });
  if (!result.ok) throw new Error(result.error);
  expect(result.summary.tasks).toMatchObject({ completed: 5, failed: 0, pending: 0, in_progress: 0 });
  expect(result.summary.scripts.every((s) => s.complete), JSON.stringify(result.summary.scripts)).toBe(true);
  expect(new Set(lines.filter((l) => / claimed /.test(l)).map((l) => /(worker-\d)/.exec(l)![1])).size).toBeGreaterThanOrEqual(2);
}, 180_000);

for (const kind of ['process', 'sandbox'] as const)
  it.skipIf(kind === 'sandbox' && !findBwrap())(`a team of three ${kind} teammates completes the 12-task DAG, each task once, in order`, async () => {
    const repo = team.repo(
      makeTeamRepo({ script: genericTaskScript(), config: { host: { kind }, teammates: [{ name: 'ann' }, { name: 'bob' }, { name: 'cid' }] } }),
    );
    for (const [id, deps] of Object.entries(DAG)) repo.writeTask(id, { subject: `make ${id}`, blockedBy: deps });
    const lead = team.lead((await startLead(repo)).lead);
    await until(lead, () => lead.tasks.list().filter((t) => t.status === 'completed').length === 12, 170_000, 'all 12 tasks completed');
    const events = readEvents(repo.dir);
    const completedAt = new Map<string, number>();
    for (const e of events)
      if (e.type === 'task_completed') {
        expect(completedAt.has(e.task), `${e.task} completed twice`).toBe(false);
        completedAt.set(e.task, Date.parse(e.ts));
      }
    for (const e of events)
      if (e.type === 'task_claimed') for (const dep of DAG[e.task] ?? []) expect(completedAt.get(dep)! <= Date.parse(e.ts), `${e.task} before ${dep}`).toBe(true);
    await until(lead, () => repo.git('ls-tree', '--name-only', 'teamd/integration', 'out/').trim().split('\n').length === 12, 60_000, 'every task merged');
  }, 180_000);
