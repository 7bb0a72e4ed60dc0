import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TeamConfigSchema } from '../../src/config/schema.js';
import { budgetChange, budgetMessage, budgetState, decideBudget } from '../../src/observe/budget.js';
import { TranscriptSpendReader } from '../../src/observe/cost.js';
import { line, usage, writeSession, type SessionSpec } from '../dashboard/support/transcripts.js';

const config = (raw: object) => TeamConfigSchema.parse(raw);
const team = config({
  teammates: [{ name: 'worker-1', maxBudgetUsd: 1 }, { name: 'worker-2' }],
  maxBudgetUsd: 2,
});

describe('decideBudget', () => {
  it('under every budget: nobody is over', () => {
    const d = decideBudget({ 'worker-1': 0.99, 'worker-2': 0.5 }, team);
    expect(d).toEqual({
      teammates: [
        { name: 'worker-1', spentUsd: 0.99, maxBudgetUsd: 1, over: false },
        { name: 'worker-2', spentUsd: 0.5, maxBudgetUsd: null, over: false },
      ],
      overTeammates: [],
      team: { spentUsd: 1.49, maxBudgetUsd: 2, over: false },
    });
  });

  it('reaching a budget is over it; a teammate without a budget never is', () => {
    const d = decideBudget({ 'worker-1': 1, 'worker-2': 0.9 }, team);
    expect(d.overTeammates).toEqual(['worker-1']);
    expect(d.team.over).toBe(false);
  });

  it("the team's spending includes the lead and agents not in the config", () => {
    const d = decideBudget({ 'worker-2': 0.5, lead: 1.2, 'old-worker': 0.3 }, team);
    expect(d.team).toEqual({ spentUsd: 2, maxBudgetUsd: 2, over: true });
    expect(d.overTeammates).toEqual([]);
  });

  it('no budgets configured: never over, whatever was spent', () => {
    const d = decideBudget({ 'worker-1': 1000 }, config({ teammates: [{ name: 'worker-1' }] }));
    expect(d.overTeammates).toEqual([]);
    expect(d.team).toEqual({ spentUsd: 1000, maxBudgetUsd: null, over: false });
  });
});

describe('budgetChange', () => {
  it('reports what became over once, so the lead acts once', () => {
    const first = decideBudget({ 'worker-1': 1 }, team);
    expect(budgetChange(null, first)).toEqual({ teammates: ['worker-1'], team: false });
    const second = decideBudget({ 'worker-1': 1.5, 'worker-2': 0.6 }, team);
    expect(budgetChange(first, second)).toEqual({ teammates: [], team: true });
    expect(budgetChange(second, second)).toEqual({ teammates: [], team: false });
  });

  it('says why in one line', () => {
    expect(budgetMessage({ name: 'worker-1', spentUsd: 1.23456, maxBudgetUsd: 1 })).toBe(
      'worker-1 spent $1.2346 of its $1.00 budget; it takes no more tasks',
    );
    expect(budgetMessage({ spentUsd: 2, maxBudgetUsd: 2 })).toBe(
      'the team spent $2.0000 of its $2.00 budget; it takes no new work',
    );
  });
});

describe('budgetState', () => {
  it('decides from what the transcripts recorded, finished runs and running ones', async () => {
    const root = mkdtempSync(join(tmpdir(), 'teamd-budget-'));
    try {
      const w1: SessionSpec = { agent: 'worker-1', session: 's1', parent: 'parser' };
      writeSession(root, w1, [
        line.header(w1),
        line.result(w1, { 'claude-sonnet-5-5': usage(1000, 1000) }, 0.9, 1),
      ]);
      expect((await budgetState(root, team)).overTeammates).toEqual([]);
      // A running call: 10,000 output tokens at $10/M = $0.10 more: worker-1 reaches $1.00.
      writeSession(root, w1, [line.text(w1, 'still going', usage(0, 10_000))], true);
      const state = await budgetState(root, team);
      expect(state.overTeammates).toEqual(['worker-1']);
      expect(state.teammates[0]!.spentUsd).toBeCloseTo(1, 10);
      const l: SessionSpec = { agent: 'lead', session: 's2', parent: null };
      writeSession(root, l, [line.header(l), line.result(l, { 'claude-sonnet-5-5': usage(1, 1) }, 1, 1)]);
      expect((await budgetState(root, team)).team).toMatchObject({ over: true, maxBudgetUsd: 2 });
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

describe('budgetState with a kept reader (the lead: totals changed by deltas, issue 24)', () => {
  it('stops at the same run as a fresh read: reaching the budget is over it, run by run', async () => {
    const root = mkdtempSync(join(tmpdir(), 'teamd-budget-kept-'));
    try {
      const reader = new TranscriptSpendReader(root, {});
      const budget = config({ teammates: [{ name: 'worker-1', maxBudgetUsd: 0.3 }], maxBudgetUsd: 0.6 });
      const overAt: { teammate: number | null; team: number | null } = { teammate: null, team: null };
      for (let i = 1; i <= 8; i++) {
        const s: SessionSpec = { agent: i % 2 ? 'worker-1' : 'worker-2', session: `s${i}`, parent: `t-${i}` };
        writeSession(root, s, [line.header(s), line.text(s, 'x', usage(1, 1)), line.result(s, { 'claude-sonnet-4-5': usage(1, 1) }, 0.1, 1)]);
        const kept = await budgetState(root, budget, { reader });
        expect(kept).toEqual(await budgetState(root, budget));
        if (kept.overTeammates.includes('worker-1')) overAt.teammate ??= i;
        if (kept.team.over) overAt.team ??= i;
      }
      // worker-1 spends $0.1 on runs 1, 3, 5: at $0.3 on run 5; the team at $0.6 on run 6.
      expect(overAt).toEqual({ teammate: 5, team: 6 });
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
