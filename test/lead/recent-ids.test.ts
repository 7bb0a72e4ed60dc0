/** The lead's per-task marks are bounded: the newest `max` ids stay, a mark made again counts as new. */
import fc from 'fast-check';
import { expect, it } from 'vitest';
import { RecentIds } from '../../src/lead/recent-ids.js';

it('holds exactly the last `max` distinct ids marked, whatever the sequence', () => {
  fc.assert(
    fc.property(fc.array(fc.nat({ max: 30 }).map(String), { maxLength: 200 }), fc.integer({ min: 1, max: 12 }), (marks, max) => {
      const recent = new RecentIds(max);
      for (const id of marks) recent.add(id);
      const newest: string[] = [];
      for (const id of [...marks].reverse()) if (!newest.includes(id) && newest.length < max) newest.push(id);
      expect(recent.size).toBe(newest.length);
      for (const id of newest) expect(recent.has(id)).toBe(true);
      for (const id of new Set(marks)) if (!newest.includes(id)) expect(recent.has(id)).toBe(false);
    }),
    { numRuns: 300 },
  );
});

it('stays at its bound over a board of 10,000 tasks', () => {
  const recent = new RecentIds();
  for (let i = 0; i < 10_000; i++) recent.add(`t${i}`);
  expect(recent.size).toBe(4_096);
  expect(recent.has('t9999') && !recent.has('t0')).toBe(true);
});
