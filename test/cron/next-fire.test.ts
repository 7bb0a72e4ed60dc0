import { describe, expect, it } from 'vitest';
import {
  checkSchedule,
  latestSlotBetween,
  machineTimeZone,
  nextFireAt,
  slotsBetween,
} from '../../src/cron/next-fire.js';

const iso = (d: Date | null) => d?.toISOString() ?? null;
const slots = (cron: string, timezone: string | undefined, from: string, to: string) =>
  slotsBetween({ cron, timezone }, new Date(from), new Date(to)).map((d) => d.toISOString());

describe('nextFireAt across time zones', () => {
  it('reads the wall clock of the job’s zone', () => {
    const after = new Date('2026-06-01T00:00:00Z');
    expect(iso(nextFireAt({ cron: '0 9 * * *', timezone: 'UTC' }, after))).toBe('2026-06-01T09:00:00.000Z');
    expect(iso(nextFireAt({ cron: '0 9 * * *', timezone: 'Europe/Berlin' }, after))).toBe(
      '2026-06-01T07:00:00.000Z',
    );
    expect(iso(nextFireAt({ cron: '0 9 * * *', timezone: 'America/New_York' }, after))).toBe(
      '2026-06-01T13:00:00.000Z',
    );
    expect(iso(nextFireAt({ cron: '0 9 * * *', timezone: 'Asia/Kolkata' }, after))).toBe(
      '2026-06-01T03:30:00.000Z',
    );
  });

  it('is strictly after `after`, to the second with 6 fields', () => {
    const job = { cron: '*/2 * * * * *', timezone: 'UTC' };
    expect(iso(nextFireAt(job, new Date('2026-03-28T00:00:02.000Z')))).toBe('2026-03-28T00:00:04.000Z');
    expect(iso(nextFireAt(job, new Date('2026-03-28T00:00:01.999Z')))).toBe('2026-03-28T00:00:02.000Z');
    expect(
      iso(nextFireAt({ cron: '0 9 * * MON-FRI', timezone: 'UTC' }, new Date('2026-03-27T09:00:00Z'))),
    ).toBe('2026-03-30T09:00:00.000Z');
  });

  it('uses the machine’s zone when the job names none', () => {
    const after = new Date('2026-07-04T12:34:00Z');
    const zone = machineTimeZone();
    expect(iso(nextFireAt({ cron: '15 10 * * *' }, after))).toBe(
      iso(nextFireAt({ cron: '15 10 * * *', timezone: zone }, after)),
    );
  });
});

describe('DST in America/New_York', () => {
  const NY = 'America/New_York';

  it('spring forward (2026-03-08): a time in the missing hour fires once, an hour later', () => {
    expect(slots('30 2 * * *', NY, '2026-03-06T12:00:00Z', '2026-03-09T12:00:00Z')).toEqual([
      '2026-03-07T07:30:00.000Z', // 02:30 EST
      '2026-03-08T07:30:00.000Z', // 02:30 does not exist: 03:30 EDT
      '2026-03-09T06:30:00.000Z', // 02:30 EDT
    ]);
  });

  it('spring forward: an interval job keeps real-time spacing across the gap', () => {
    expect(slots('*/30 * * * *', NY, '2026-03-08T06:00:00Z', '2026-03-08T08:00:00Z')).toEqual([
      '2026-03-08T06:30:00.000Z', // 01:30 EST
      '2026-03-08T07:00:00.000Z', // 03:00 EDT
      '2026-03-08T07:30:00.000Z',
      '2026-03-08T08:00:00.000Z',
    ]);
  });

  it('fall back (2026-11-01): a time in the repeated hour fires once that day', () => {
    expect(slots('30 1 * * *', NY, '2026-10-31T12:00:00Z', '2026-11-02T12:00:00Z')).toEqual([
      '2026-11-01T05:30:00.000Z', // 01:30 EDT; not again at 01:30 EST
      '2026-11-02T06:30:00.000Z',
    ]);
  });

  it('fall back: an hourly job fires every real hour through the repeated hour', () => {
    expect(slots('0 * * * *', NY, '2026-11-01T04:30:00Z', '2026-11-01T08:00:00Z')).toEqual([
      '2026-11-01T05:00:00.000Z', // 01:00 EDT
      '2026-11-01T06:00:00.000Z', // 01:00 EST
      '2026-11-01T07:00:00.000Z', // 02:00 EST
      '2026-11-01T08:00:00.000Z',
    ]);
  });
});

describe('DST in Europe/Berlin', () => {
  const BERLIN = 'Europe/Berlin';

  it('spring forward (2026-03-29): 02:00 becomes 03:00 CEST and 09:00 moves an hour in UTC', () => {
    expect(slots('0 2 * * *', BERLIN, '2026-03-28T00:00:00Z', '2026-03-30T12:00:00Z')).toEqual([
      '2026-03-28T01:00:00.000Z',
      '2026-03-29T01:00:00.000Z',
      '2026-03-30T00:00:00.000Z',
    ]);
    expect(slots('0 9 * * *', BERLIN, '2026-03-28T00:00:00Z', '2026-03-29T12:00:00Z')).toEqual([
      '2026-03-28T08:00:00.000Z',
      '2026-03-29T07:00:00.000Z',
    ]);
  });

  it('fall back (2026-10-25): 02:30 fires once', () => {
    expect(slots('30 2 * * *', BERLIN, '2026-10-24T12:00:00Z', '2026-10-26T12:00:00Z')).toEqual([
      '2026-10-25T00:30:00.000Z', // 02:30 CEST
      '2026-10-26T01:30:00.000Z',
    ]);
  });
});

describe('slotsBetween and latestSlotBetween', () => {
  it('walks (from, to] and stops at the limit', () => {
    const job = { cron: '* * * * * *', timezone: 'UTC' };
    const all = slotsBetween(job, new Date('2026-01-01T00:00:00Z'), new Date('2026-01-01T00:00:05Z'));
    expect(all.map((d) => d.toISOString().slice(17, 19))).toEqual(['01', '02', '03', '04', '05']);
    expect(
      slotsBetween(job, new Date('2026-01-01T00:00:00Z'), new Date('2026-01-01T01:00:00Z'), 3),
    ).toHaveLength(3);
  });

  it('finds the latest slot far from the start without walking every one', () => {
    const job = { cron: '*/2 * * * * *', timezone: 'UTC' };
    const latest = latestSlotBetween(job, new Date('2026-01-01T00:00:00Z'), new Date('2026-01-08T00:00:01Z'));
    expect(iso(latest)).toBe('2026-01-08T00:00:00.000Z');
    const daily = { cron: '0 9 * * *', timezone: 'UTC' };
    expect(
      iso(latestSlotBetween(daily, new Date('2026-01-01T00:00:00Z'), new Date('2026-01-20T08:00:00Z'))),
    ).toBe('2026-01-19T09:00:00.000Z');
    expect(
      latestSlotBetween(daily, new Date('2026-01-01T10:00:00Z'), new Date('2026-01-02T08:00:00Z')),
    ).toBeNull();
  });
});

describe('checkSchedule', () => {
  it('accepts 5 and 6 fields in a known zone', () => {
    expect(checkSchedule({ cron: '0 9 * * 1-5', timezone: 'Europe/Berlin' })).toBeNull();
    expect(checkSchedule({ cron: '*/2 * * * * *' })).toBeNull();
  });

  it.each([
    ['* * *', 'cron', /has 3 field/],
    ['@daily', 'cron', /has 1 field/],
    ['0 0 0 * * * *', 'cron', /has 7 field/],
    ['61 * * * *', 'cron', /got value 61/],
    ['0 0 30 2 *', 'cron', /Invalid explicit day of month/],
  ])('refuses %j', (cron, field, message) => {
    const problem = checkSchedule({ cron });
    expect(problem?.field).toBe(field);
    expect(problem?.message).toMatch(message);
  });

  it('refuses an unknown time zone, naming it', () => {
    expect(checkSchedule({ cron: '0 9 * * *', timezone: 'Mars/Olympus' })).toMatchObject({
      field: 'timezone',
      message: expect.stringContaining('unknown time zone "Mars/Olympus"'),
    });
  });
});
