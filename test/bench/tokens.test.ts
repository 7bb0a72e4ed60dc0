import { describe, expect, test } from 'vitest';
import { runLedger } from '../../bench/tokens/ledger-run.js';
import { REALISTIC, TINY } from '../../bench/tokens/workloads.js';
import { Lead } from '../../src/lead/lead.js';
import { formatLedger, LEDGER_COLUMNS } from '../../src/observe/token-ledger.js';
import { TaskStore } from '../../src/store/tasks/index.js';

describe('bench/tokens, reduced', () => {
  test('a 2-task team through the real SDK yields a ledger per teammate and per task with every column', async () => {
    const run = await runLedger({ Lead, TaskStore }, { tasks: 2, teammates: 2, workload: TINY });
    const table = formatLedger('task', run.tasks);
    expect(table[0]!.split(/\s{2,}/)).toEqual(['task', ...LEDGER_COLUMNS]);
    expect(run.tasks.map((r) => r.key)).toEqual(expect.arrayContaining(['t1', 't2', 'total']));
    const total = run.teammates.at(-1)!;
    expect(total.key).toBe('total');
    expect(total.calls).toBe(run.requests);
    expect(total.usage.cache_read_input_tokens).toBeGreaterThan(0);
    expect(total.coordinationTokens).toBeGreaterThan(0);
    expect(run.schemaTokensPerRequest.every((n) => n > 0)).toBe(true);
  }, 120_000);

  test('the realistic workload reads real source files: its requests are several times the tiny ones', async () => {
    const run = await runLedger({ Lead, TaskStore }, { tasks: 1, teammates: 2, workload: REALISTIC });
    expect(run.tasks.map((r) => r.key)).toEqual(expect.arrayContaining(['t1', 'total']));
    expect(Math.max(...run.promptTokensPerRequest)).toBeGreaterThan(4_000);
    expect(run.teammates.at(-1)!.coordinationShare).toBeGreaterThan(0);
  }, 120_000);
});
