import fc from 'fast-check';
import { expect, it } from 'vitest';
import { retryOrFail } from '../../../src/store/tasks/lifecycle.js';
import { checkChange } from '../../../src/store/tasks/transitions.js';
import { TaskSchema, type Task } from '../../../src/store/types.js';

const now = new Date('2026-12-01T10:00:00Z');
const claimed = (attempts: number): Task =>
  TaskSchema.parse({ id: 't1', subject: 's', status: 'in_progress', owner: 'ann', attempts, lease: { owner: 'ann', expiresAt: now.toISOString() }, createdAt: now.toISOString(), updatedAt: now.toISOString() });

it('a run without a result goes back to the board until maxAttempts, then fails; every step is a legal change', () => {
  fc.assert(
    fc.property(fc.integer({ min: 1, max: 10 }), (max) => {
      let task = claimed(0);
      for (let i = 1; i <= max; i++) {
        const next = retryOrFail(task, 'ann', 'run ended without a result', max, now);
        expect(checkChange(task, next).ok).toBe(true);
        expect(next.attempts).toBe(i);
        expect(next.notes.at(-1)?.text).toContain(`attempt ${i} of ${max}`);
        if (i === max) {
          expect(next).toMatchObject({ status: 'failed', owner: 'ann', lease: null, result: { error: 'run ended without a result' } });
          return;
        }
        expect(next).toMatchObject({ status: 'pending', owner: null, lease: null });
        task = { ...claimed(next.attempts), notes: next.notes };
      }
    }),
  );
});
