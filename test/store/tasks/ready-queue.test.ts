import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ReadyQueue, readyOrder } from '../../../src/store/tasks/ready-queue.js';
import type { Task } from '../../../src/store/types.js';

const task = (id: string, priority: number, createdAt: string, owner: string | null = null): Task =>
  ({ id, priority, createdAt, owner }) as unknown as Task;

/** Operations on a handful of ids, so the same task is added, moved and removed many times. */
const op = fc.oneof(
  fc.record({
    kind: fc.constant('set' as const),
    id: fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f'),
    priority: fc.integer({ min: 0, max: 3 }),
    second: fc.integer({ min: 0, max: 3 }),
    owner: fc.constantFrom(null, 'alice', 'bob'),
  }),
  fc.record({ kind: fc.constant('delete' as const), id: fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f') }),
);

describe('ReadyQueue', () => {
  it('keeps the same order as sorting every ready task, through any sequence of changes', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 60 }), (ops) => {
        const queue = new ReadyQueue();
        const model = new Map<string, Task>();
        for (const o of ops) {
          if (o.kind === 'delete') {
            queue.delete(o.id);
            model.delete(o.id);
          } else {
            const t = task(o.id, o.priority, `2026-01-01T00:00:0${o.second}.000Z`, o.owner);
            queue.set(t);
            model.set(o.id, t);
          }
          const expected = [...model.values()].sort(readyOrder);
          expect(queue.filter(() => true)).toEqual(expected);
          expect(queue.first((t) => t.owner !== 'bob')).toEqual(expected.find((t) => t.owner !== 'bob'));
          expect(queue.size).toBe(model.size);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('finds a task changed in place after it was queued', () => {
    const queue = new ReadyQueue();
    const a = task('a', 1, '2026-01-01T00:00:00.000Z');
    queue.set(a);
    queue.set(task('b', 2, '2026-01-01T00:00:00.000Z'));
    (a as { priority: number }).priority = 5; // a bug elsewhere must not corrupt the queue
    queue.delete('a');
    expect(queue.filter(() => true).map((t) => t.id)).toEqual(['b']);
  });
});
