/**
 * The pure parts of review and of the refusal bound: generated inputs, so no
 * sequence of refusals or rejections loops past `maxAttempts`, the notes
 * stay few, and any reviewer answer parses to a verdict.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TeamConfigSchema } from '../../src/config/schema.js';
import { keepRecentRefusals, KEPT_REFUSAL_NOTES, refusedTask } from '../../src/lead/merge-outcomes.js';
import { parseVerdict } from '../../src/lead/reviewer.js';
import { acceptReview, inReview, needsReview, rejectReview, toReview } from '../../src/lead/review-state.js';
import { TaskSchema, type Task } from '../../src/store/types.js';

const now = new Date('2026-12-01T10:00:00Z');
const refusal = (message: string) => ({ reason: 'verify_failed' as const, message, conflictFiles: [], outputTail: '' });

function finished(extra: Partial<Task> = {}): Task {
  const lease = { owner: 'ann', expiresAt: '2026-12-08T10:00:00.000Z' };
  const merge = { state: 'queued', branch: 'teamd/t1', commit: 'c1', summary: 'did it', filesTouched: [], agent: 'ann' };
  return TaskSchema.parse({ id: 't1', subject: 's', status: 'in_progress', owner: 'ann', lease, metadata: { merge }, createdAt: now.toISOString(), updatedAt: now.toISOString(), ...extra });
}

/** The owner finishes again: in progress, a new commit, queued. */
const refinish = (t: Task, commit: string): Task => finished({ attempts: t.attempts, notes: t.notes, metadata: { ...t.metadata, merge: { ...(finished().metadata.merge as object), commit } } });

describe('the refusal bound', () => {
  it('fails the task at maxAttempts, never sooner, keeping only the last refusal notes', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 8 }), fc.array(fc.string({ maxLength: 3000 }), { minLength: 1, maxLength: 12 }), (max, messages) => {
        let task = finished();
        for (const [i, m] of messages.entries()) {
          task = refusedTask(task, 'ann', refusal(m), max, `.team/state/outputs/t1/merge-${i + 1}.txt`, now);
          expect(task.attempts).toBe(i + 1);
          expect(task.status).toBe(i + 1 >= max ? 'failed' : 'pending');
          expect(task.notes.length).toBeLessThanOrEqual(KEPT_REFUSAL_NOTES);
          for (const n of task.notes) expect(n.text.length).toBeLessThan(1_800);
          if (task.status === 'failed') return;
          expect(task.owner).toBe('ann');
          task = refinish(task, `c${i + 2}`);
        }
      }),
    );
  });

  it('drops only old refusal notes, never other notes', () => {
    const notes = [
      { ts: now.toISOString(), by: 'user', text: 'keep me' },
      ...Array.from({ length: 6 }, (_, i) => ({ ts: now.toISOString(), by: 'lead', text: `Merge refused (conflict, attempt ${i + 1} of 9): x` })),
    ];
    const kept = keepRecentRefusals(notes);
    expect(kept.map((n) => n.text)).toEqual(['keep me', ...notes.slice(4).map((n) => n.text)]);
  });
});

describe('review state', () => {
  const human = TeamConfigSchema.parse({ review: 'human' });
  const agent = TeamConfigSchema.parse({ review: 'agent', reviewRounds: 2 });
  const auto = TeamConfigSchema.parse({});

  it('a task of its own mode overrides the team; auto never reviews', () => {
    expect(needsReview(finished(), auto)).toBe(false);
    expect(needsReview(finished({ metadata: { ...finished().metadata, review: 'human' } }), auto)).toBe(true);
    expect(needsReview(finished({ metadata: { ...finished().metadata, review: 'auto' } }), human)).toBe(false);
    expect(needsReview(finished({ metadata: { ...finished().metadata, review: 'bogus' } }), human)).toBe(true);
  });

  it('accept queues the reviewed commit; a later commit is reviewed again', () => {
    const inR = toReview(finished(), human, now);
    expect(inR.ok && inReview(inR.value)).toBe(true);
    const accepted = acceptReview(inR.ok ? inR.value : finished(), 'user', now);
    expect(accepted.ok && needsReview(accepted.value, human)).toBe(false);
    expect(accepted.ok && (accepted.value.metadata.merge as { state: string }).state).toBe('queued');
    const again = accepted.ok ? { ...accepted.value, metadata: { ...accepted.value.metadata, merge: { ...(accepted.value.metadata.merge as object), commit: 'c2' } } } : finished();
    expect(needsReview(again, human)).toBe(true);
    expect(acceptReview(finished(), 'user', now).ok).toBe(false);
  });

  it('rejections are bounded: the agent hands over after reviewRounds, the task fails at maxAttempts', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 6 }), fc.integer({ min: 1, max: 4 }), (maxAttempts, rounds) => {
        const config = { ...agent, reviewRounds: rounds };
        let task = finished();
        for (let i = 1; ; i++) {
          const r = toReview(task, config, now);
          expect(r.ok).toBe(true);
          if (!r.ok) return;
          const mode = (r.value.metadata.merge as { review: { mode: string } }).review.mode;
          expect(mode).toBe(i <= rounds ? 'agent' : 'human');
          const rejected = rejectReview(r.value, mode === 'agent' ? 'reviewer' : 'user', 'no', maxAttempts, now);
          expect(rejected.ok).toBe(true);
          if (!rejected.ok) return;
          expect(rejected.value.attempts).toBe(i);
          if (rejected.value.status === 'failed') {
            expect(i).toBe(maxAttempts);
            return;
          }
          expect(rejected.value).toMatchObject({ status: 'pending', owner: 'ann' });
          task = refinish(rejected.value, `c${i + 1}`);
        }
      }),
    );
  });
});

describe('parseVerdict', () => {
  it('reads ACCEPT / REJECT on the first line, anything else is undecided', () => {
    expect(parseVerdict('ACCEPT\nfine')).toEqual({ decision: 'accept', reasons: 'fine' });
    expect(parseVerdict('**REJECT**: add tests')).toEqual({ decision: 'reject', reasons: 'add tests' });
    expect(parseVerdict('reject - wrong file\nsee line 3')).toEqual({ decision: 'reject', reasons: 'wrong file\nsee line 3' });
    expect(parseVerdict('I think we should ACCEPT').decision).toBe('undecided');
    expect(parseVerdict('').decision).toBe('undecided');
    fc.assert(
      fc.property(fc.string(), (s) => {
        expect(['accept', 'reject', 'undecided']).toContain(parseVerdict(s).decision);
      }),
    );
  });
});
