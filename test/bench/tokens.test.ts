import { describe, expect, test } from 'vitest';
import { cacheShareBound } from '../../bench/tokens/cache-bound.js';
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
    // the breakpoints read (nearly) all that any cache could: the bound is above, and close
    expect(run.cacheShareBound).toBeGreaterThanOrEqual(total.cacheShare - 1e-9);
    expect(total.cacheShare).toBeGreaterThan(run.cacheShareBound * 0.97);
    expect(run.calls).toHaveLength(run.requests);
  }, 120_000);

  test('the cache bound: a request reads the longest prefix an earlier one sent, never what is new', () => {
    const tools = [{ name: 't', description: 'x'.repeat(400), input_schema: {} }];
    const body = (...texts: string[]) => ({
      model: 'm',
      max_tokens: 1,
      tools,
      messages: texts.map((text, i) => ({ role: i % 2 ? 'assistant' : 'user', content: text })),
    });
    const first = body('a'.repeat(400));
    const second = body('a'.repeat(400), 'b'.repeat(400), 'c'.repeat(400));
    const bound = cacheShareBound([first, second] as never);
    // the second reads the first whole (tools and its message) and writes its two new messages
    expect(bound).toBeGreaterThan(0.3);
    expect(bound).toBeLessThan(0.37);
    expect(cacheShareBound([first, first] as never)).toBeCloseTo(0.5, 1);
  });

  test('the realistic workload reads real source files: its requests are several times the tiny ones', async () => {
    const run = await runLedger({ Lead, TaskStore }, { tasks: 1, teammates: 2, workload: REALISTIC });
    expect(run.tasks.map((r) => r.key)).toEqual(expect.arrayContaining(['t1', 'total']));
    expect(Math.max(...run.promptTokensPerRequest)).toBeGreaterThan(4_000);
    expect(run.teammates.at(-1)!.coordinationShare).toBeGreaterThan(0);
  }, 120_000);
});
