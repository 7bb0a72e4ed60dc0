import { describe, expect, it } from 'vitest';
import { MISSED_COUNT_LIMIT, planDue } from '../../src/cron/due-slots.js';
import { CronJobSchema } from '../../src/store/types.js';
import type { CronJob } from '../../src/store/types.js';

const T0 = Date.parse('2026-05-01T12:00:00.000Z');
const t = (s: number) => new Date(T0 + s * 1000);
const job = (fields: Partial<CronJob> = {}): CronJob =>
  CronJobSchema.parse({
    id: 'j',
    cron: '*/10 * * * * *',
    prompt: 'p',
    timezone: 'UTC',
    createdAt: t(0).toISOString(),
    ...fields,
  });

describe('planDue', () => {
  it('nothing is due before the next slot', () => {
    expect(planDue(job(), t(0), t(9.9), 5000)).toEqual({
      fire: null,
      caughtUp: 0,
      skipped: null,
      through: null,
    });
  });

  it('fires the one slot reached on time', () => {
    expect(planDue(job(), t(0), t(10.2), 5000)).toEqual({
      fire: { slot: t(10), late: false },
      caughtUp: 0,
      skipped: null,
      through: t(10),
    });
  });

  it('skip: a late slot and the ones before it are dropped', () => {
    expect(planDue(job({ catchUp: 'skip' }), t(0), t(36), 5000)).toEqual({
      fire: null,
      caughtUp: 0,
      skipped: { count: 3, countCapped: false, first: t(10), last: t(30), reason: 'missed' },
      through: t(30),
    });
  });

  it('once: the latest late slot fires for all of them', () => {
    expect(planDue(job({ catchUp: 'once' }), t(0), t(36), 5000)).toMatchObject({
      fire: { slot: t(30), late: true },
      caughtUp: 3,
      skipped: null,
    });
  });

  it('an on-time slot fires; the earlier ones are dropped (skip) or folded into it (once)', () => {
    expect(planDue(job({ catchUp: 'skip' }), t(0), t(31), 5000)).toMatchObject({
      fire: { slot: t(30), late: false },
      skipped: { count: 2, first: t(10), last: t(20) },
    });
    expect(planDue(job({ catchUp: 'once' }), t(0), t(31), 5000)).toMatchObject({
      fire: { slot: t(30), late: false },
      caughtUp: 2,
      skipped: null,
    });
  });

  it('nothing fires on top of an undelivered fire', () => {
    const pending = job({ pendingDelivery: t(10).toISOString(), lastFired: t(10).toISOString() });
    expect(planDue(pending, t(10), t(20), 5000)).toMatchObject({
      fire: null,
      skipped: { reason: 'undelivered', count: 1 },
      through: t(20),
    });
  });

  it('counts up to a cap, and still finds the latest slot', () => {
    const plan = planDue(job({ cron: '* * * * * *', catchUp: 'once' }), t(0), t(86_400), 5000);
    expect(plan).toMatchObject({ fire: { slot: t(86_400), late: false }, caughtUp: MISSED_COUNT_LIMIT });
  });
});
