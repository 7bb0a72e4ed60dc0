import { afterEach, describe, expect, it } from 'vitest';
import { cost } from '../../src/cli/cost.js';
import { formatCostReport } from '../../src/observe/cost.js';
import { buildTeam, type TeamFixture } from '../dashboard/support/team-fixture.js';
import { captureStdout } from '../observe/support/capture-stdout.js';

let team: TeamFixture;
afterEach(() => team.close());

describe('teamd cost', () => {
  it('a table per teammate with totals, the running run and the budgets', async () => {
    team = buildTeam('working');
    const out = await captureStdout(() => cost({ dir: team.root }));
    expect(out.stdout).toBe(
      [
        'TEAMMATE  RUNS  TOKENS IN   OUT  CACHE READ  CACHE WRITE  COST USD',
        'worker-1     2       6000  1000       12000         4000    0.0332',
        'TOTAL        2       6000  1000       12000         4000    0.0332',
        '(1 run still going: priced from its model calls so far)',
        '',
        'team budget: $0.0332 of $5.00',
        'worker-2 budget: $0.0000 of $1.00',
        '',
      ].join('\n'),
    );
  });

  it('--by task and --by model; --json carries the report and the budget decision', async () => {
    team = buildTeam('finished');
    const byTask = await captureStdout(() => cost({ dir: team.root, by: 'task' }));
    expect(byTask.stdout.split('\n').slice(0, 5)).toEqual([
      'TASK        RUNS  TOKENS IN   OUT  CACHE READ  CACHE WRITE  COST USD',
      'design-ast     1       1500   500        4000         4000    0.0184',
      'parser         1       4500   500        8000            0    0.0148',
      'release        1        800    50           0            0    0.0021',
      'TOTAL          3       6800  1050       12000         4000    0.0353',
    ]);
    const json = await captureStdout(() => cost({ dir: team.root, by: 'model', json: true }));
    const parsed = JSON.parse(json.stdout);
    expect(parsed).toMatchObject({
      by: 'model',
      rows: [{ key: 'claude-sonnet-5-5', runs: 3 }],
      running: 0,
      budget: { overTeammates: [], team: { maxBudgetUsd: 5, over: false } },
    });
    expect(parsed.total.costUsd).toBeCloseTo(0.0353, 10);
  });

  it('refuses an unknown grouping; says when nothing was spent', async () => {
    team = buildTeam('working');
    expect((await captureStdout(() => cost({ dir: team.root, by: 'day' }))).error).toBe(
      '--by: must be one of teammate, task, model, got "day"',
    );
    expect(
      formatCostReport({
        by: 'teammate',
        rows: [],
        total: { tokens: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 }, costUsd: 0, runs: 0 },
        running: 0,
      }),
    ).toEqual(['nothing spent yet (no transcripts with usage)']);
  });
});
